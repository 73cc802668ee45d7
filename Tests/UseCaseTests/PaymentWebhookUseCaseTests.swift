import Domain
import Foundation
import MockSupport
import Scenes
import Synchronization
import Testing
import UseCase

/// The PaymentWebhook scene's use cases on mock ports, through its container: what a refused
/// delivery answers (nothing recorded), that each event is acted on once, after the answer, and
/// that acting on one reads the payment from the provider.
@Suite("PaymentWebhook use cases on mock gateways")
struct PaymentWebhookUseCaseTests {
    /// A verifier that answers the event (or the refusal) the test gives.
    struct Verifier: PaymentEventVerifier {
        let answer: @Sendable () throws(PaymentEventError) -> PaymentEvent
        func event(payload: [UInt8], signature: String?, now: Date) throws(PaymentEventError) -> PaymentEvent { try answer() }
    }

    /// Events recorded once each, and those marked handled.
    final class Events: PaymentEventStore {
        let state = Mutex<(recorded: Set<String>, handled: [String])>(([], []))
        /// What `unhandled` answers, and the window it was asked for.
        let leftOver: [PaymentEvent]
        let askedWindow = Mutex<(after: Date, before: Date)?>(nil)
        init(leftOver: [PaymentEvent] = []) { self.leftOver = leftOver }
        var handled: [String] { state.withLock { $0.handled } }
        var recorded: Set<String> { state.withLock { $0.recorded } }
        func recordOnce(_ event: PaymentEvent, at: Date) async throws -> Bool { state.withLock { $0.recorded.insert(event.id).inserted } }
        func markHandled(eventID: String, at: Date) async throws { state.withLock { $0.handled.append(eventID) } }
        func purge(receivedBefore before: Date) async throws -> Int { throw UnstubbedCall(call: "purge") }
        func unhandled(receivedAfter after: Date, before: Date, limit: Int) async throws -> [PaymentEvent] {
            askedWindow.withLock { $0 = (after, before) }
            return Array(leftOver.prefix(limit))
        }
    }

    static let pending = Order(
        id: Fixtures.id(8), customerID: Fixtures.id(9), status: .pendingPayment, lines: [],
        total: Money(amount: 2400, currency: Fixtures.yen), paymentIntentID: "pi_8", declineCode: nil, createdAt: Fixtures.now)

    static func event(_ id: String = "evt_1", _ type: String = "payment_intent.succeeded", payment: String? = "pi_8") -> PaymentEvent {
        PaymentEvent(id: id, type: type, paymentIntentID: payment)
    }

    func container(
        verifier: Verifier? = Verifier { Self.event() }, events: Events = Events(),
        orders: MockOrderStore = MockOrderStore(order: Self.pending),
        payments: MockPaymentGateway? = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded })
    ) -> PaymentWebhookContainer {
        PaymentWebhookContainer(
            verifier: verifier, events: events, orders: orders, refunds: MockRefundStore(), payments: payments,
            actionTimeout: .seconds(900), system: Fixtures.system)
    }

    static let delivery = PaymentWebhookReceiveInput(rawBody: Array(#"{"id":"evt_1"}"#.utf8), stripeSignature: "t=1,v1=00")

    @Test func isOffWithoutASecretOrAProvider() async throws {
        for container in [container(verifier: nil), container(payments: nil)] {
            #expect(try await container.useCase.receive(Self.delivery, background: RecordingBackgroundWork()) == .notEnabled)
        }
    }

    @Test func aRefusedDeliveryRecordsNothing() async throws {
        let refusals: [(PaymentEventError, PaymentWebhookReceiveOutcome)] = [
            (.badSignature, .badSignature), (.staleSignature, .staleSignature), (.malformed, .malformed),
        ]
        for (error, outcome) in refusals {
            let events = Events()
            let background = RecordingBackgroundWork()
            let useCase = container(verifier: Verifier { () throws(PaymentEventError) in throw error }, events: events).useCase
            #expect(try await useCase.receive(Self.delivery, background: background) == outcome)
            #expect(events.recorded.isEmpty && background.jobs.isEmpty)
        }
    }

    @Test func eachEventIsActedOnOnceAfterTheAnswer() async throws {
        let events = Events()
        let useCase = container(events: events).useCase
        let first = RecordingBackgroundWork()
        #expect(try await useCase.receive(Self.delivery, background: first) == .received(received: true, duplicate: false))
        #expect(first.jobs.count == 1 && first.warnings.isEmpty)
        let again = RecordingBackgroundWork()
        #expect(try await useCase.receive(Self.delivery, background: again) == .received(received: true, duplicate: true))
        #expect(again.jobs.isEmpty)
        #expect(events.recorded == ["evt_1"] && events.handled.isEmpty)
    }

    /// An event whose handling failed (the provider could not be read) was acknowledged at once,
    /// so the provider never sends it again: the periodic pass handles it, and one still failing
    /// is left for the next pass.
    @Test func eventsWhoseHandlingFailedAreHandledAgain() async throws {
        let events = Events(leftOver: [Self.event("evt_failed"), Self.event("evt_gone", payment: "pi_other")])
        let orders = MockOrderStore(order: Self.pending)
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded }, longestCall: .seconds(40))
        let useCase = container(events: events, orders: orders, payments: payments).useCase
        #expect(try await useCase.handleLeftOverEvents() == (2, 0))
        #expect(orders.calls.contains("paid") && events.handled == ["evt_failed", "evt_gone"])
        let window = try #require(events.askedWindow.withLock { $0 })
        #expect(window.before == Fixtures.now - .seconds(40) * 2 - ReconcileUseCase.margin, "two provider calls and a margin")
        #expect(window.after == Fixtures.now - PaymentWebhookUseCase.leftOverUntil)

        let down = MockPaymentGateway(confirm: { .succeeded }, retrieve: { throw PaymentError.unreachable(reason: "down") })
        let stillFailing = Events(leftOver: [Self.event("evt_failed")])
        let again = container(events: stillFailing, orders: MockOrderStore(order: Self.pending), payments: down).useCase
        #expect(try await again.handleLeftOverEvents() == (0, 1))
        #expect(stillFailing.handled.isEmpty)
    }

    @Test func aDisputeIsLoggedForTheStaff() async throws {
        let background = RecordingBackgroundWork()
        let useCase = container(verifier: Verifier { Self.event("evt_d", "charge.dispute.created") }).useCase
        _ = try await useCase.receive(Self.delivery, background: background)
        #expect(background.warnings == ["payment disputed: event evt_d, payment pi_8"])
    }

    @Test func aPaymentEventSettlesTheOrderFromWhatTheProviderSays() async throws {
        let events = Events()
        let orders = MockOrderStore(order: Self.pending)
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded })
        let status = try await container(events: events, orders: orders, payments: payments).useCase.handle(Self.event())
        #expect(status == .paid)
        #expect(payments.calls == ["retrieve pi_8"])
        #expect(orders.calls == ["load pi_8", "paid"])
        #expect(events.handled == ["evt_1"])
    }

    /// A refund event for a cancel whose refund is not recorded yet (its request may still be
    /// under way) asked the provider for the refund again; the reconciler settles it later.
    @Test func aRefundEventLeavesACancelsRefundStillUnderWayAlone() async throws {
        var cancelling = Self.pending
        cancelling.status = .refundPending
        let events = Events()
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded })
        let useCase = container(events: events, orders: MockOrderStore(order: cancelling), payments: payments).useCase
        #expect(try await useCase.handle(Self.event("evt_r", "charge.refunded")) == .refundPending)
        #expect(payments.calls.isEmpty && events.handled == ["evt_r"])
    }

    @Test func anEventAboutNoOrderOfOursIsOnlyMarkedHandled() async throws {
        let events = Events()
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded })
        let useCase = container(events: events, payments: payments).useCase
        #expect(try await useCase.handle(Self.event("evt_2", payment: "pi_other")) == nil)
        #expect(try await useCase.handle(Self.event("evt_3", "customer.created", payment: nil)) == nil)
        #expect(payments.calls.isEmpty && events.handled == ["evt_2", "evt_3"])
    }
}
