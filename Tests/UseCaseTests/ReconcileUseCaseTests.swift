import Domain
import Foundation
import Scenes
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
        OrderContainer(store: store, payments: payments, system: Fixtures.system).reconciler!
    }

    @Test func succeededPaymentMarksThePendingOrderPaid() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .succeeded })
        var expected = ReconcileUseCase.Report()
        expected.paid = 1
        #expect(try await reconciler(store, payments).reconcile(olderThan: 60) == expected)
        #expect(store.calls == ["pending", "paid"])
        #expect(payments.calls == ["retrieve pi_9"])
    }

    @Test func orderWithoutAPaymentFailsWithoutAskingTheProvider() async throws {
        let store = MockOrderStore(order: pending(paymentID: nil))
        let payments = MockPaymentGateway(confirm: { .succeeded })
        #expect(try await reconciler(store, payments).reconcile(olderThan: 60).failed == 1)
        #expect(store.calls.last == "failed payment_not_started")
        #expect(payments.calls.isEmpty)
    }

    @Test func unconfirmedPaymentIsCancelledThenFailed() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { .requiresConfirmation })
        #expect(try await reconciler(store, payments).reconcile(olderThan: 60).failed == 1)
        #expect(payments.calls == ["retrieve pi_9", "cancel"])
    }

    @Test func providerStillDownLeavesItPending() async throws {
        let store = MockOrderStore(order: pending(paymentID: "pi_9"))
        let payments = MockPaymentGateway(confirm: { .succeeded }, retrieve: { throw PaymentError.unreachable(reason: "down") })
        #expect(try await reconciler(store, payments).reconcile(olderThan: 60).stillPending == 1)
        #expect(store.calls == ["pending"])
    }
}
