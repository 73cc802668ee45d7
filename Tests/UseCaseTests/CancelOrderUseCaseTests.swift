import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Cancellation on mock gateways")
struct CancelOrderUseCaseTests {
    func order(_ status: OrderStatus, paymentID: String? = "pi_1") -> Order {
        Order(
            id: Fixtures.fixedID, customerID: UUID(), status: status, lines: [],
            total: Money(amount: 2400, currency: Fixtures.yen), paymentIntentID: paymentID, declineCode: nil, createdAt: Fixtures.now)
    }

    func cancel(_ store: MockOrderStore, _ payments: MockPaymentGateway, _ order: Order) async throws -> Order {
        try await CancelOrderUseCase(store: store, payments: payments, system: Fixtures.system)
            .cancel(orderID: order.id, customerID: order.customerID)
    }

    @Test func paidOrderIsClaimedRefundedInFullThenRestocked() async throws {
        let paid = order(.paid)
        let store = MockOrderStore(order: paid)
        let payments = MockPaymentGateway(confirm: { .succeeded })
        #expect(try await cancel(store, payments, paid).status == .refunded)
        #expect(payments.calls == ["refund 2400"])
        #expect(store.calls.filter { $0.contains("->") } == ["paid->refund_pending", "refund_pending->refunded restock re_1 succeeded"])
    }

    @Test func aCancelAfterStaffRefundsRefundsWhatIsLeft() async throws {
        var paid = order(.paid)
        let yen = Fixtures.yen
        paid.refunds = [
            RefundSummary(id: Fixtures.id(2), amount: Money(amount: 500, currency: yen), status: .succeeded, createdAt: Fixtures.now),
            RefundSummary(id: Fixtures.id(3), amount: Money(amount: 700, currency: yen), status: .failed, createdAt: Fixtures.now),
        ]
        let payments = MockPaymentGateway(confirm: { .succeeded })
        #expect(try await cancel(MockOrderStore(order: paid), payments, paid).status == .refunded)
        #expect(payments.calls == ["refund 1900"])
    }

    @Test func pendingOrderIsCancelledAtTheProviderFirst() async throws {
        let pending = order(.pendingPayment)
        let store = MockOrderStore(order: pending)
        let payments = MockPaymentGateway(confirm: { .succeeded })
        #expect(try await cancel(store, payments, pending).status == .cancelled)
        #expect(payments.calls == ["cancel"])
        #expect(store.calls.contains("pending_payment->cancelled restock"))
    }

    /// A cancel the provider refuses because the payment is canceled already (a cancel racing
    /// this one) goes on to cancel the order; refused for another reason, it stays an error.
    @Test func aPaymentCanceledAlreadyStillCancelsTheOrder() async throws {
        let pending = order(.pendingPayment)
        let refused: @Sendable () throws -> PaymentStatus = { throw PaymentError.invalidRequest(message: "already canceled", param: nil) }
        let store = MockOrderStore(order: pending)
        let canceled = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .canceled }, cancel: refused)
        #expect(try await cancel(store, canceled, pending).status == .cancelled)
        #expect(store.calls.contains("pending_payment->cancelled restock"))
        let waiting = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .requiresAction }, cancel: refused)
        await #expect(throws: PaymentError.self) { try await cancel(MockOrderStore(order: pending), waiting, pending) }
    }

    /// A cancel the provider refused (the payment was processing) can succeed when asked again:
    /// each asks with a key of its own, as the provider replays a key's first answer for a day.
    @Test func aRefusedCancelIsAskedAgainWithAKeyOfItsOwn() async throws {
        let pending = order(.pendingPayment)
        let refused: @Sendable () throws -> PaymentStatus = { throw PaymentError.invalidRequest(message: "processing", param: nil) }
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .processing }, cancel: refused)
        let system = SystemContext(now: { Fixtures.now }, newID: { UUID() })
        for _ in 0..<2 {
            await #expect(throws: PaymentError.self) {
                try await CancelOrderUseCase(store: MockOrderStore(order: pending), payments: payments, system: system)
                    .cancel(orderID: pending.id, customerID: pending.customerID)
            }
        }
        #expect(payments.cancelKeys.count == 2 && Set(payments.cancelKeys).count == 2, "\(payments.cancelKeys)")
    }

    @Test func settledOrdersAreNotCancellable() async throws {
        for status in [OrderStatus.paymentFailed, .cancelled, .refundPending, .refunded] {
            let settled = order(status)
            await #expect(throws: OrderError.notCancellable(OrderProgress(rawValue: status.rawValue)!)) {
                try await cancel(MockOrderStore(order: settled), MockPaymentGateway(confirm: { .succeeded }), settled)
            }
        }
    }
}
