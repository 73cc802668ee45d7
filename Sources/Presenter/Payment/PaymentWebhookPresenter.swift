import Domain

/// Webhook outcomes to HTTP answers: 200 for a recorded or redelivered event (the provider stops
/// retrying), 400 for a bad or stale signature or an unreadable event (nothing recorded), 404
/// when this service takes no webhooks.
public enum PaymentWebhookPresenter {
    /// `PAYMENT_WEBHOOK_SECRET` (or the payment provider) is not configured: there is no endpoint.
    public static let notEnabled = Problem.notFound("This service takes no payment webhooks (PAYMENT_WEBHOOK_SECRET is not set).")

    public static func received(_ outcome: Result<PaymentEvent?, any Error>) -> Presentation {
        switch outcome {
        case .success(let event):
            return .json(200, WebhookReceiptModel(received: true, duplicate: event == nil))
        case .failure(let error as PaymentEventError):
            switch error {
            case .badSignature:
                return Problem.badRequest("The Stripe-Signature header does not match the body.")
            case .staleSignature:
                return Problem.badRequest("The Stripe-Signature timestamp is outside the tolerance (a replay?).")
            case .malformed:
                return Problem.badRequest("The body is not an event this service can read.")
            }
        case .failure(let error):
            return Problem.from(error)
        }
    }
}

/// `{"received": true, "duplicate": false}`.
public struct WebhookReceiptModel: Encodable, Sendable {
    public let received: Bool
    public let duplicate: Bool
}
