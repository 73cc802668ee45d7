import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Checkout use case on mock gateways")
struct OrderUseCaseTests {
    let order = Order(
        id: Fixtures.fixedID, customerID: UUID(), status: .pendingPayment, lines: [],
        total: Money(amount: 2400, currency: Fixtures.yen), paymentIntentID: nil, declineCode: nil, createdAt: Fixtures.now)
    let request = CheckoutRequest(
        customerID: UUID(), paymentMethod: "pm_card_visa", idempotencyKey: "key-1", minimumCharge: Money(amount: 1, currency: Fixtures.yen))

    func useCase(_ store: MockOrderStore, _ payments: MockPaymentGateway) -> OrderCheckout {
        OrderCheckout(store: store, payments: payments, system: Fixtures.system)
    }

    @Test func paidOrderUsesKeysDerivedFromTheOrder() async throws {
        let store = MockOrderStore(order: order)
        let payments = MockPaymentGateway { .succeeded }
        guard case .paid(let paid) = try await useCase(store, payments).checkout(request) else { Issue.record("not paid"); return }
        #expect(paid.status == .paid)
        let key = "order-\(Fixtures.fixedID.uuidString.lowercased())"
        #expect(payments.calls == ["create \(key)-create", "confirm \(key)-confirm"])
        #expect(store.calls == ["place", "attach pi_1", "paid"])
    }

    @Test func declinedCardFailsTheOrder() async throws {
        let store = MockOrderStore(order: order)
        let payments = MockPaymentGateway {
            throw PaymentError.cardDeclined(code: "card_declined", declineCode: "insufficient_funds", message: "no")
        }
        let outcome = try await useCase(store, payments).checkout(request)
        guard case .declined(_, let code) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(code == "insufficient_funds")
        #expect(store.calls.last == "failed insufficient_funds")
    }

    @Test func unansweredPaymentLeavesTheOrderPending() async throws {
        let store = MockOrderStore(order: order)
        let payments = MockPaymentGateway { throw PaymentError.unreachable(reason: "timeout") }
        guard case .pending = try await useCase(store, payments).checkout(request) else { Issue.record("not pending"); return }
        #expect(!store.calls.contains("paid") && !store.calls.contains { $0.hasPrefix("failed") })
    }

    @Test func aReplayNeverCallsThePaymentProvider() async throws {
        var settled = order
        settled.status = .paid
        let store = MockOrderStore(order: settled, created: false)
        let payments = MockPaymentGateway {
            Issue.record("confirmed again"); return .succeeded
        }
        guard case .paid = try await useCase(store, payments).checkout(request) else { Issue.record("not replayed as paid"); return }
        #expect(payments.calls.isEmpty)
    }

    /// A cancelled order was never paid: its replay must not answer as if it were (it did, 201).
    @Test func aReplayOfACancelledOrderIsNoPayment() async throws {
        var cancelled = order
        cancelled.status = .cancelled
        let store = MockOrderStore(order: cancelled, created: false)
        let payments = MockPaymentGateway {
            Issue.record("confirmed again"); return .succeeded
        }
        let outcome = try await useCase(store, payments).checkout(request)
        guard case .cancelled(let replayed) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(replayed.id == order.id && payments.calls.isEmpty)
    }

    @Test func badKeyOrPaymentMethodIsRejectedFirst() async throws {
        let store = MockOrderStore(order: order)
        let payments = MockPaymentGateway { .succeeded }
        do {
            _ = try await useCase(store, payments).checkout(
                CheckoutRequest(
                    customerID: UUID(), paymentMethod: "visa", idempotencyKey: "", minimumCharge: Money(amount: 1, currency: Fixtures.yen)))
            Issue.record("accepted bad input")
        } catch let error as ValidationError {
            #expect(error.fields.map(\.field) == ["idempotency_key", "payment_method"])
        }
        #expect(store.calls.isEmpty)
    }

    @Test func withoutAPaymentProviderCheckoutAnswersNotConfigured() async throws {
        let container = OrderContainer(
            store: MockOrderStore(order: order), refundStore: MockRefundStore(), fulfilment: MockFulfilmentStore(),
            returns: MockReturnStore(), payments: nil,
            checkoutDeadline: .seconds(10),
            actionTimeout: .seconds(900), awaitingPaymentLimit: 5, currency: Fixtures.yen, invoiceIssuer: nil, system: Fixtures.system)
        let input = OrderCheckoutInput(
            customerID: UUID(), idempotencyKey: "key-1", paymentMethod: nil, addressID: nil, shippingMethodID: nil, expectedTotal: nil)
        #expect(try await container.useCase.checkout(input, background: RecordingBackgroundWork()) == .paymentsNotConfigured)
    }
}
