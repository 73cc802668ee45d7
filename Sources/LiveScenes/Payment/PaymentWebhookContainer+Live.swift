import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `PaymentWebhookContainer`.
extension PaymentWebhookContainer {
    public static func live(_ resources: AppResources) -> PaymentWebhookContainer {
        PaymentWebhookContainer(
            orders: .live(resources), events: PostgresPaymentEventStore(database: resources.pool),
            verifier: resources.config.paymentWebhookSecret.map { StripeWebhookVerifier(secret: $0) })
    }
}
