import Domain
import Foundation
import Presenter
import Testing

@Suite("Order presenter")
struct OrderPresenterTests {
    let order = Order(
        id: UUID(), customerID: UUID(), status: .paymentFailed, lines: [], total: Money(amount: 1200, currency: Currency("JPY")!),
        paymentIntentID: "pi_1", declineCode: nil, createdAt: Date())

    func declined(_ code: String) throws -> (presentation: Presentation, text: String, body: [String: Any]) {
        let presentation = OrderPresenter.checkout(.success(.declined(order, code: code)))
        let data = try #require(presentation.body)
        let body = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (presentation, String(decoding: data, as: UTF8.self), body)
    }

    @Test(arguments: ["stolen_card", "lost_card", "fraudulent", "pickup_card", "merchant_blacklist"])
    func fraudSignalsAreAnsweredAsAGenericDecline(code: String) throws {
        let (presentation, text, body) = try declined(code)
        #expect(presentation.status == 402)
        #expect(body["decline_code"] as? String == "generic_decline")
        #expect(!text.contains(code), "the real code never reaches the client: \(text)")
        #expect(presentation.diagnostic?.contains("decline_code \(code)") == true, "the real code goes to the log")
        #expect(presentation.diagnostic?.contains(order.id.uuidString.lowercased()) == true)
    }

    @Test(arguments: ["insufficient_funds", "card_declined", "expired_card", "authentication_required"])
    func otherDeclineCodesAreShownAsTheyAre(code: String) throws {
        let (presentation, _, body) = try declined(code)
        #expect(presentation.status == 402)
        #expect(body["decline_code"] as? String == code)
        #expect(presentation.diagnostic == nil)
    }
}
