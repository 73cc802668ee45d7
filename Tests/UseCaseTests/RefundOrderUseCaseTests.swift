import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Staff refunds on mock gateways")
struct RefundOrderUseCaseTests {
    static func refund(status: RefundStatus = .pending, providerID: String? = nil) -> Refund {
        Refund(
            id: Fixtures.fixedID, orderID: Fixtures.id(7), amount: Money(amount: 500, currency: Fixtures.yen), reason: .duplicate,
            restock: false, lines: [], status: status, providerRefundID: providerID, paymentIntentID: "pi_1", createdAt: Fixtures.now)
    }

    static func request(amount: Int64? = 500, reason: RefundReason = .duplicate, key: String = "k1") -> RefundRequest {
        RefundRequest(
            orderID: Fixtures.id(7), amount: amount.map { Money(amount: $0, currency: Fixtures.yen) }, lines: [], reason: reason,
            restock: false, idempotencyKey: key)
    }

    static let paid = Order(
        id: Fixtures.id(7), customerID: UUID(), status: .paid, lines: [], total: Money(amount: 2400, currency: Fixtures.yen),
        paymentIntentID: "pi_1", declineCode: nil, createdAt: Fixtures.now)

    func refunds(_ store: MockRefundStore, _ payments: MockPaymentGateway) -> RefundOrderUseCase {
        RefundOrderUseCase(store: store, payments: payments, system: Fixtures.system)
    }

    @Test func aSucceededRefundIsRecordedWithTheProvidersID() async throws {
        let store = MockRefundStore([Self.refund()])
        let payments = MockPaymentGateway(confirm: { .succeeded })
        let outcome = try await refunds(store, payments).refund(Self.request())
        #expect(outcome == .succeeded(Self.refund(status: .succeeded, providerID: "re_1")))
        #expect(payments.calls == ["refund 500"])
        #expect(store.calls == ["reserve 500", "record succeeded re_1"])
    }

    @Test func noAnswerLeavesItPendingUntilTheReconcilerAsksAgain() async throws {
        let store = MockRefundStore([Self.refund()])
        let down = MockPaymentGateway(confirm: { .succeeded }, refund: { throw PaymentError.unreachable(reason: "refused") })
        #expect(try await refunds(store, down).refund(Self.request()) == .pending(Self.refund()))
        #expect(store.calls == ["reserve 500"])

        // The reconciler finds it without a provider id, not among the payment's refunds, and
        // asks again (the same key).
        let back = MockPaymentGateway(confirm: { .succeeded }, listRefunds: { [] })
        let report = try await ReconcileUseCase(
            store: MockOrderStore(order: Self.paid), refunds: store, payments: back, system: Fixtures.system
        ).reconcile()
        #expect(report.refunded == 1)
        #expect(back.calls == ["list refunds pi_1", "refund 500"])
        #expect(store.refund(Fixtures.fixedID)?.status == .succeeded)
    }

    /// A refund the provider made whose answer was lost, past the day it keeps a key, is found
    /// among the payment's refunds by its key, not asked for again (a second refund).
    @Test func theReconcilerFindsARefundWhoseAnswerWasLostByItsKey() async throws {
        let store = MockRefundStore([Self.refund()])
        let made = PaymentRefund(
            id: "re_made", amount: Money(amount: 500, currency: Fixtures.yen), status: .succeeded,
            key: Self.refund().providerIdempotencyKey)
        let other = PaymentRefund(id: "re_other", amount: Money(amount: 500, currency: Fixtures.yen), status: .succeeded, key: "refund-x")
        let back = MockPaymentGateway(confirm: { .succeeded }, listRefunds: { [other, made] })
        let report = try await ReconcileUseCase(
            store: MockOrderStore(order: Self.paid), refunds: store, payments: back, system: Fixtures.system
        ).reconcile()
        #expect(report.refunded == 1)
        #expect(back.calls == ["list refunds pi_1"])
        #expect(store.refund(Fixtures.fixedID)?.providerRefundID == "re_made")
    }

    @Test func theReconcilerReadsAKnownRefundAndLeavesItOnAnyError() async throws {
        let store = MockRefundStore([Self.refund(providerID: "re_9")])
        let down = MockPaymentGateway(
            confirm: { .succeeded }, retrieveRefund: { throw PaymentError.invalidRequest(message: "401", param: nil) })
        #expect(
            try await ReconcileUseCase(store: MockOrderStore(order: Self.paid), refunds: store, payments: down, system: Fixtures.system)
                .reconcile().stillPending == 1)
        #expect(store.refund(Fixtures.fixedID)?.status == .pending)

        let failed = MockPaymentGateway(confirm: { .succeeded }, retrieveRefund: { .failed })
        #expect(
            try await ReconcileUseCase(store: MockOrderStore(order: Self.paid), refunds: store, payments: failed, system: Fixtures.system)
                .reconcile().refundsFailed == 1)
        #expect(failed.calls == ["retrieve refund re_9"])
        #expect(store.refund(Fixtures.fixedID)?.status == .failed)
    }

    @Test func aRefusedRefundIsRecordedFailed() async throws {
        let store = MockRefundStore([Self.refund()])
        let refusing = MockPaymentGateway(
            confirm: { .succeeded }, refund: { throw PaymentError.invalidRequest(message: "no", param: "amount") })
        #expect(try await refunds(store, refusing).refund(Self.request()) == .failed(Self.refund(status: .failed)))
        #expect(store.calls == ["reserve 500", "record failed -"])
    }

    @Test func aReplayedKeyAsksTheProviderNothing() async throws {
        let store = MockRefundStore([Self.refund(status: .succeeded, providerID: "re_1")], created: false)
        let payments = MockPaymentGateway(confirm: { .succeeded })
        #expect(
            try await refunds(store, payments).refund(Self.request())
                == .succeeded(Self.refund(status: .succeeded, providerID: "re_1")))
        #expect(payments.calls.isEmpty)
    }

    @Test func badRequestsReachNeitherTheStoreNorTheProvider() async throws {
        let store = MockRefundStore([Self.refund()])
        let payments = MockPaymentGateway(confirm: { .succeeded })
        let error = await #expect(throws: ValidationError.self) {
            try await refunds(store, payments).refund(Self.request(amount: 0, key: ""))
        }
        #expect(error?.fields.map(\.field) == ["idempotency_key", "amount.amount"])
        #expect(store.calls.isEmpty && payments.calls.isEmpty)
    }

    @Test func restockNeedsLinesAndLinesAreUnique() {
        let mug = Fixtures.id(1)
        let twice = RefundRequest(
            orderID: Fixtures.id(7), amount: nil,
            lines: [RefundLine(variantID: mug, quantity: 1), RefundLine(variantID: mug, quantity: 100)],
            reason: .other, restock: true, idempotencyKey: "k")
        #expect(
            throws: ValidationError([
                FieldError("lines[1].variant_id", "appears twice"), FieldError("lines[1].quantity", "must be 1 to 99"),
            ])
        ) {
            try twice.validate()
        }
        let bare = RefundRequest(orderID: Fixtures.id(7), amount: nil, lines: [], reason: .other, restock: true, idempotencyKey: "k")
        #expect(throws: ValidationError.self) { try bare.validate() }
    }
}
