import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

/// A refund is recorded as the provider states it: only `succeeded` refunds and restocks.
@Suite("Refund outcomes on mock gateways")
struct RefundOutcomeTests {
    func order(_ status: OrderStatus, refund: RefundRecord? = nil, staffRefunds: [RefundSummary] = []) -> Order {
        Order(
            id: Fixtures.fixedID, customerID: UUID(), status: status, lines: [],
            total: Money(amount: 2400, currency: Fixtures.yen), paymentIntentID: "pi_1", declineCode: nil, refund: refund,
            refunds: staffRefunds, createdAt: Fixtures.now.addingTimeInterval(-600))
    }

    /// A refund of the payment as the provider lists it, asked for with `key`.
    static func listed(_ id: String, _ amount: Int64, _ status: RefundStatus, key: String?) -> PaymentRefund {
        PaymentRefund(id: id, amount: Money(amount: amount, currency: Fixtures.yen), status: status, key: key)
    }

    /// The key a cancel of `order` asks for its refund with.
    static let cancelKey = "order-\(Fixtures.fixedID.lowercasedText)-refund"

    func reconciler(_ store: MockOrderStore, _ payments: MockPaymentGateway) -> ReconcileUseCase {
        ReconcileUseCase(store: store, payments: payments, system: Fixtures.system)
    }

    func cancellation(_ store: MockOrderStore, _ payments: MockPaymentGateway) -> CancelOrderUseCase {
        CancelOrderUseCase(store: store, payments: payments, system: Fixtures.system)
    }

    func transitions(_ store: MockOrderStore) -> [String] { store.calls.filter { $0.contains("->") } }

    @Test(arguments: [RefundStatus.failed, .canceled])
    func aFailedRefundLeavesTheOrderPaidAndTheStockOut(status: RefundStatus) async throws {
        let paid = order(.paid)
        let store = MockOrderStore(order: paid)
        let payments = MockPaymentGateway(confirm: { .succeeded }, refund: { status })
        await #expect(throws: OrderError.refundFailed(status)) {
            try await cancellation(store, payments).cancel(orderID: paid.id, customerID: paid.customerID)
        }
        #expect(transitions(store) == ["paid->refund_pending", "refund_pending->paid re_1 \(status.rawValue)"])
        #expect(try await store.order(id: paid.id, customerID: paid.customerID)?.status == .paid)
    }

    @Test(arguments: [RefundStatus.requiresAction, .pending])
    func anUnsettledRefundLeavesTheOrderRefundPending(status: RefundStatus) async throws {
        let paid = order(.paid)
        let store = MockOrderStore(order: paid)
        let payments = MockPaymentGateway(confirm: { .succeeded }, refund: { status })
        let cancelled = try await cancellation(store, payments).cancel(orderID: paid.id, customerID: paid.customerID)
        #expect(cancelled.status == .refundPending && cancelled.refund == RefundRecord(id: "re_1", status: status))
        #expect(transitions(store) == ["paid->refund_pending", "refund_pending->refund_pending re_1 \(status.rawValue)"])
    }

    @Test func aRefundWithNoAnswerIsSettledByTheReconcilerFromTheProvidersRefund() async throws {
        let paid = order(.paid)
        let store = MockOrderStore(order: paid)
        let timedOut = MockPaymentGateway(confirm: { .succeeded }, refund: { throw PaymentError.unreachable(reason: "timeout") })
        let cancelled = try await cancellation(store, timedOut).cancel(orderID: paid.id, customerID: paid.customerID)
        #expect(cancelled.status == .refundPending && cancelled.refund == nil)
        #expect(transitions(store) == ["paid->refund_pending"], "not paid again, not restocked")

        // The provider did refund: the reconciler finds the refund by the payment and records it.
        let later = MockPaymentGateway(
            confirm: { .succeeded }, listRefunds: { [Self.listed("re_1", 2400, .succeeded, key: Self.cancelKey)] })
        var expected = ReconcileUseCase.Report()
        expected.refunded = 1
        #expect(try await reconciler(store, later).reconcile() == expected)
        #expect(later.calls == ["list refunds pi_1"])
        #expect(transitions(store).last == "refund_pending->refunded restock re_1 succeeded")
    }

    @Test func aRefundTheProviderNeverMadeIsAskedForAgainWithTheSameKey() async throws {
        let store = MockOrderStore(order: order(.refundPending))
        let payments = MockPaymentGateway(confirm: { .succeeded }, refund: { .succeeded }, listRefunds: { [] })
        #expect(try await reconciler(store, payments).reconcile().refunded == 1)
        #expect(payments.calls == ["list refunds pi_1", "refund 2400"])
        #expect(transitions(store) == ["refund_pending->refunded restock re_1 succeeded"])
    }

    /// A staff refund of part of the payment, or one made in the provider's dashboard, is not the
    /// cancel's: the cancel's refund of what is left is asked for again, not taken as settled.
    @Test func anotherRefundOfThePaymentIsNotTheCancels() async throws {
        let staff = RefundSummary(
            id: Fixtures.id(3), amount: Money(amount: 500, currency: Fixtures.yen), status: .succeeded, createdAt: Fixtures.now)
        let store = MockOrderStore(order: order(.refundPending, staffRefunds: [staff]))
        let payments = MockPaymentGateway(
            confirm: { .succeeded }, refund: { .succeeded },
            listRefunds: { [Self.listed("re_staff", 500, .succeeded, key: "refund-staff")] })
        #expect(try await reconciler(store, payments).reconcile().refunded == 1)
        #expect(payments.calls == ["list refunds pi_1", "refund 1900"])
        #expect(transitions(store) == ["refund_pending->refunded restock re_1 succeeded"])
    }

    /// A cancel made again after its refund failed is a refund of its own: the first's key, which
    /// a provider answers with the first failure for a day, is not found for it nor sent again.
    @Test func aSecondCancelsRefundHasAKeyOfItsOwn() async throws {
        var again = order(.refundPending)
        let claim = OrderEvent(type: "status_changed", at: Fixtures.now, actor: .customer, data: ["from": "paid", "to": "refund_pending"])
        let failed = OrderEvent(type: "status_changed", at: Fixtures.now, actor: .system, data: ["from": "refund_pending", "to": "paid"])
        again.events = [claim, failed, claim]
        let store = MockOrderStore(order: again)
        let payments = MockPaymentGateway(
            confirm: { .succeeded }, refund: { .succeeded }, listRefunds: { [Self.listed("re_first", 2400, .failed, key: Self.cancelKey)] })
        #expect(try await reconciler(store, payments).reconcile().refunded == 1)
        #expect(payments.calls == ["list refunds pi_1", "refund 2400"])
        #expect(transitions(store) == ["refund_pending->refunded restock re_1 succeeded"])
    }

    @Test func aRecordedRefundIsReadAgainUntilItSettles() async throws {
        let store = MockOrderStore(order: order(.refundPending, refund: RefundRecord(id: "re_7", status: .pending)))
        let stillPending = MockPaymentGateway(confirm: { .succeeded }, retrieveRefund: { .pending })
        #expect(try await reconciler(store, stillPending).reconcile().stillPending == 1)
        let failed = MockPaymentGateway(confirm: { .succeeded }, retrieveRefund: { .failed })
        #expect(try await reconciler(store, failed).reconcile().refundsFailed == 1)
        #expect(failed.calls == ["retrieve refund re_7"])
        #expect(transitions(store) == ["refund_pending->refund_pending re_7 pending", "refund_pending->paid re_7 failed"])
    }

    @Test func aProviderThatRefusesTheKeyLeavesTheRefundPending() async throws {
        let store = MockOrderStore(order: order(.refundPending))
        let payments = MockPaymentGateway(
            confirm: { .succeeded }, listRefunds: { throw PaymentError.invalidRequest(message: "HTTP 401", param: nil) })
        #expect(try await reconciler(store, payments).reconcile().stillPending == 1)
        #expect(transitions(store).isEmpty)
    }
}
