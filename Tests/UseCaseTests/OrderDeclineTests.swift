import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

/// What a declined checkout answers: the decline code as the provider gave it, except the codes
/// that say a card is suspected of fraud, lost or stolen, which are answered as
/// `generic_decline` (telling a card thief why only helps the thief) and logged with the order.
@Suite("Declined checkouts")
struct OrderDeclineTests {
    let order = Order(
        id: Fixtures.fixedID, customerID: UUID(), status: .pendingPayment, lines: [],
        total: Money(amount: 1200, currency: Fixtures.yen), paymentIntentID: nil, declineCode: nil, createdAt: Fixtures.now)

    func checkout(declining code: String) async throws -> (OrderCheckoutOutcome, RecordingBackgroundWork) {
        let payments = MockPaymentGateway { throw PaymentError.cardDeclined(code: "card_declined", declineCode: code, message: "no") }
        let container = OrderContainer(
            store: MockOrderStore(order: order), refundStore: MockRefundStore(), fulfilment: MockFulfilmentStore(),
            returns: MockReturnStore(), payments: payments,
            checkoutDeadline: .seconds(10),
            actionTimeout: .seconds(900), awaitingPaymentLimit: 5, currency: Fixtures.yen, invoiceIssuer: nil, system: Fixtures.system)
        let background = RecordingBackgroundWork()
        let input = OrderCheckoutInput(
            customerID: order.customerID, idempotencyKey: "key-1", paymentMethod: "pm_card_visa", addressID: nil, shippingMethodID: nil,
            expectedTotal: nil)
        return (try await container.useCase.checkout(input, background: background), background)
    }

    @Test(arguments: ["stolen_card", "lost_card", "fraudulent", "pickup_card", "merchant_blacklist"])
    func fraudSignalsAreAnsweredAsAGenericDecline(code: String) async throws {
        let (outcome, background) = try await checkout(declining: code)
        #expect(outcome == .paymentDeclined(declineCode: "generic_decline", orderID: order.id))
        #expect(background.warnings.count == 1)
        #expect(background.warnings.first?.contains("decline_code \(code)") == true, "the real code goes to the log")
        #expect(background.warnings.first?.contains(order.id.uuidString.lowercased()) == true)
    }

    @Test(arguments: ["insufficient_funds", "card_declined", "expired_card", "authentication_required"])
    func otherDeclineCodesAreShownAsTheyAre(code: String) async throws {
        let (outcome, background) = try await checkout(declining: code)
        #expect(outcome == .paymentDeclined(declineCode: code, orderID: order.id))
        #expect(background.warnings.isEmpty)
    }
}
