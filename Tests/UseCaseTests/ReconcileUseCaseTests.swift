import Domain
import Foundation
import MockSupport
import Scenes
import Synchronization
import Testing
import UseCase

@Suite("Reconciler on mock gateways")
struct ReconcileUseCaseTests {
    func pending(paymentID: String?) -> Order {
        Order(
            id: Fixtures.fixedID, customerID: UUID(), status: .pendingPayment, lines: [],
            total: Money(amount: 100, currency: Fixtures.yen), paymentIntentID: paymentID, declineCode: nil,
            createdAt: Fixtures.now.addingTimeInterval(-600))
    }

    func reconciler(_ store: MockOrderStore, _ payments: MockPaymentGateway) -> ReconcileUseCase {
        ReconcileUseCase(store: store, payments: payments, system: Fixtures.system)
    }

    @Test func succeededPaymentMarksThePendingOrderPaid() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded })
        var expected = ReconcileUseCase.Report()
        expected.paid = 1
        #expect(try await reconciler(store, payments).reconcile(olderThan: .seconds(60)) == expected)
        #expect(store.calls == ["pending", "paid", "awaiting action", "refund pending"])
        #expect(payments.calls == ["retrieve pi_9"])
    }

    @Test func orderWithoutAPaymentFailsWithoutAskingTheProvider() async throws {
        let store = MockOrderStore(order: pending(paymentID: nil))
        let payments = MockPaymentGateway(confirm: { .succeeded })
        #expect(try await reconciler(store, payments).reconcile(olderThan: .seconds(60)).failed == 1)
        #expect(store.calls.contains("failed payment_not_started"))
        #expect(payments.calls.isEmpty)
    }

    /// The provider answers a key it has seen with its first answer, a failure too, for a day:
    /// a cancel that failed under a fixed key kept failing, and the order its stock, that long.
    @Test func eachAttemptToCancelHasAKeyOfItsOwn() async throws {
        let system = SystemContext(now: { Fixtures.now }, newID: { UUID() })
        var expired = pending(paymentID: "pi_9")
        expired.status = .requiresAction
        expired.actionExpiresAt = Fixtures.now.addingTimeInterval(-1)
        for order in [pending(paymentID: "pi_9"), expired] {
            let store = MockOrderStore(order: order)
            let payments = MockPaymentGateway(
                confirm: { .succeeded }, retrieve: { order.status == .requiresAction ? .requiresAction : .requiresConfirmation },
                cancel: { throw PaymentError.providerFailure(status: 500, message: "down") })
            let reconciler = ReconcileUseCase(store: store, payments: payments, system: system)
            for _ in 0..<2 { _ = try await reconciler.reconcile(olderThan: .seconds(60)) }
            #expect(payments.cancelKeys.count == 2 && Set(payments.cancelKeys).count == 2, "\(payments.cancelKeys)")
        }
    }

    @Test func unconfirmedPaymentIsCancelledThenFailed() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .requiresConfirmation })
        #expect(try await reconciler(store, payments).reconcile(olderThan: .seconds(60)).failed == 1)
        #expect(payments.calls == ["retrieve pi_9", "cancel"])
        #expect(store.calls.contains("failed payment_not_confirmed"))
    }

    /// A declined payment still takes another card; it is canceled before its order fails, and
    /// while the cancel gets no answer the order is not failed (its stock stays reserved).
    @Test func aFailedPaymentIsCanceledBeforeItsOrderFails() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .requiresPaymentMethod })
        #expect(try await reconciler(store, payments).reconcile(olderThan: .seconds(60)).failed == 1)
        #expect(payments.calls == ["retrieve pi_9", "cancel"])
        #expect(store.calls.contains("failed payment_failed"))

        let unanswered = MockOrderStore(order: pending(paymentID: "pi_9"))
        let down = MockPaymentGateway(
            confirm: { .succeeded }, retrieve: { .requiresPaymentMethod }, cancel: { throw PaymentError.unreachable(reason: "timeout") })
        #expect(try await reconciler(unanswered, down).reconcile(olderThan: .seconds(60)).failed == 0)
        #expect(!unanswered.calls.contains { $0.hasPrefix("failed") })
    }

    @Test func providerStillDownLeavesItPending() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { throw PaymentError.unreachable(reason: "down") })
        #expect(try await reconciler(store, payments).reconcile(olderThan: .seconds(60)).stillPending == 1)
        #expect(store.calls == ["pending", "awaiting action", "refund pending"])
    }
}

/// What the reconciler must not do: settle an order on anything but a definite provider status.
@Suite("Reconciler settles only on a definite provider status")
struct ReconcileDefiniteStatusTests {
    func pending(paymentID: String? = "pi_9", age: Duration = .seconds(600)) -> Order {
        Order(
            id: Fixtures.fixedID, customerID: UUID(), status: .pendingPayment, lines: [],
            total: Money(amount: 100, currency: Fixtures.yen), paymentIntentID: paymentID, declineCode: nil,
            createdAt: Fixtures.now - age)
    }

    func reconciler(_ store: MockOrderStore, _ payments: MockPaymentGateway) -> ReconcileUseCase {
        ReconcileUseCase(store: store, payments: payments, system: Fixtures.system)
    }

    @Test(arguments: [401, 403, 404])
    func aRefusedRequestLeavesThePendingOrderAndItsStockAlone(status: Int) async throws {
        // What StripeTransport makes of a 401/403/404, as after a key rotation.
        let refused = PaymentError.invalidRequest(message: "HTTP \(status)", param: nil)
        let store = MockOrderStore(order: pending())
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { throw refused })
        var expected = ReconcileUseCase.Report()
        expected.stillPending = 1
        #expect(try await reconciler(store, payments).reconcile() == expected)
        #expect(store.calls == ["pending", "awaiting action", "refund pending"], "neither failed nor restocked")
    }

    @Test func aRefusedCancelIsFollowedByAReadThatFindsThePaymentSucceeded() async throws {
        // The reconciler reads requires_confirmation, the checkout's confirm then succeeds, so the
        // provider refuses the reconciler's cancel: the card is charged and the order is paid.
        let reads = StatusSequence([.requiresConfirmation, .succeeded])
        let store = MockOrderStore(order: pending())
        let payments = MockPaymentGateway(
            confirm: { .succeeded }, retrieve: { reads.next() },
            cancel: { throw PaymentError.invalidRequest(message: "This PaymentIntent's status is succeeded", param: nil) })
        #expect(try await reconciler(store, payments).reconcile().paid == 1)
        #expect(payments.calls == ["retrieve pi_9", "cancel", "retrieve pi_9"])
        #expect(store.calls == ["pending", "paid", "awaiting action", "refund pending"])
    }

    @Test func aCancelWithNoAnswerLeavesItPending() async throws {
        let store = MockOrderStore(order: pending())
        let payments = MockPaymentGateway(
            confirm: { .succeeded }, retrieve: { .requiresConfirmation }, cancel: { throw PaymentError.unreachable(reason: "timeout") })
        #expect(try await reconciler(store, payments).reconcile().stillPending == 1)
        #expect(!store.calls.contains { $0.hasPrefix("failed") })
    }

    @Test func aCheckoutStillInsideItsDeadlineIsLeftAlone() async throws {
        // Standard retries with PAYMENT_TIMEOUT_SECONDS=10: 3 x 10 s + 0.5 s + 1 s per call.
        let longestCall = Duration.milliseconds(31_500)
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .requiresConfirmation }, longestCall: longestCall)
        let young = MockOrderStore(order: pending(age: .seconds(61)))
        // Older than the fixed minute the reconciler used to wait, younger than two calls' deadlines.
        #expect(try await reconciler(young, payments).reconcile(olderThan: .seconds(60)) == ReconcileUseCase.Report())
        #expect(payments.calls.isEmpty)
        #expect(reconciler(young, payments).minimumAge == .milliseconds(63_000) + ReconcileUseCase.margin)
        let old = MockOrderStore(order: pending(age: .milliseconds(63_000) + ReconcileUseCase.margin + .seconds(1)))
        #expect(try await reconciler(old, payments).reconcile(olderThan: .seconds(60)).failed == 1)
    }
}

/// Answers a fixed sequence of statuses, one per call, then the last one again.
final class StatusSequence: Sendable {
    private let statuses: Mutex<[PaymentStatus]>

    init(_ statuses: [PaymentStatus]) { self.statuses = Mutex(statuses) }

    func next() -> PaymentStatus {
        statuses.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
    }
}
