import Domain
import Foundation

/// The parts of Stripe's JSON the gateway reads. Decoding is lenient: fakes such as localstripe
/// omit fields Stripe sends, and Stripe adds fields over time.
struct StripePaymentIntentWire: Decodable {
    let id: String
    let status: String
    let amount: Int64
    let currency: String
    let clientSecret: String?
    let nextAction: NextAction?

    /// `next_action`: its `type`, and for a redirect where to.
    struct NextAction: Decodable {
        let type: String
        let redirectToURL: Redirect?

        struct Redirect: Decodable { let url: String? }

        enum CodingKeys: String, CodingKey {
            case type
            case redirectToURL = "redirect_to_url"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, status, amount, currency
        case clientSecret = "client_secret"
        case nextAction = "next_action"
    }

    func domain() throws(PaymentError) -> PaymentIntent {
        guard let status = PaymentStatus(rawValue: status), let currency = Currency(currency.uppercased()) else {
            throw .providerFailure(status: 200, message: "unexpected payment intent \(id): status \(status), currency \(currency)")
        }
        var action: PaymentAction?
        if status == .requiresAction, let clientSecret {
            action = PaymentAction(
                clientSecret: clientSecret, nextActionType: nextAction?.type ?? "use_stripe_sdk",
                redirectURL: nextAction?.redirectToURL?.url)
        }
        return PaymentIntent(
            id: id, status: status, amount: Money(amount: amount, currency: currency), action: action, clientSecret: clientSecret)
    }
}

struct StripeRefundWire: Decodable {
    let id: String
    let amount: Int64
    let currency: String
    let status: String
    let metadata: [String: String]?

    /// Every refund is asked for with its idempotency key in its metadata as well: the header
    /// is kept for 24 hours, the metadata for good (`PaymentRefund.key`).
    static let keyName = "storefront_key"
    static let keyField = "metadata[\(keyName)]"

    /// A status the shop does not know is no answer: the refund stays unsettled.
    func domain() throws(PaymentError) -> PaymentRefund {
        guard let status = RefundStatus(rawValue: status), let currency = Currency(currency.uppercased()) else {
            throw .providerFailure(status: 200, message: "unexpected refund \(id): status \(status), currency \(currency)")
        }
        return PaymentRefund(id: id, amount: Money(amount: amount, currency: currency), status: status, key: metadata?[Self.keyName])
    }
}

/// `{"object": "list", "data": [...]}`.
struct StripeListWire<Element: Decodable>: Decodable {
    let data: [Element]
}

/// `{"error": {"type", "code", "decline_code", "message", "param"}}`.
struct StripeErrorWire: Decodable {
    struct Body: Decodable {
        let type: String?
        let code: String?
        let declineCode: String?
        let message: String?
        let param: String?

        enum CodingKeys: String, CodingKey {
            case type, code, message, param
            case declineCode = "decline_code"
        }
    }
    let error: Body

    /// The domain error for an HTTP status and this body.
    func domain(status: Int) -> PaymentError {
        let message = error.message ?? "payment provider error"
        if status == 402 || error.type == "card_error" || error.code == "card_declined" {
            return .cardDeclined(code: error.code ?? "card_declined", declineCode: error.declineCode, message: message)
        }
        if status == 429 { return .rateLimited }
        // A key the provider holds for another request (a refund asked for before it carried
        // its key in its metadata, asked again now with it): no refusal of what was asked, an
        // outcome not known here.
        if status >= 500 || status == 409 || error.type == "idempotency_error" {
            return .providerFailure(status: status, message: message)
        }
        return .invalidRequest(message: message, param: error.param)
    }
}
