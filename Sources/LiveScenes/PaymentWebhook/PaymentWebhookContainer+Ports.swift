// once: created by scenegen from Specs/PaymentWebhook.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the PaymentWebhook scene's hand-written ports.
extension PaymentWebhookContainer {
    /// The `verifier` port: Stripe's signature scheme with `PAYMENT_WEBHOOK_SECRET`; none
    /// without it (the endpoint answers 404).
    static func liveVerifier(_ resources: AppResources) -> (any PaymentEventVerifier)? {
        resources.config.paymentWebhookSecret.map { StripeWebhookVerifier(secret: $0) }
    }

    /// The `events` port: `payment_events` on PostgreSQL.
    static func liveEvents(_ resources: AppResources) -> any PaymentEventStore {
        PostgresPaymentEventStore(database: resources.pool)
    }

    /// The `orders` port: the Order scene's store.
    static func liveOrders(_ resources: AppResources) -> any OrderStore {
        OrderContainer.live(resources).store
    }

    /// The `refunds` port: the Order scene's refund store.
    static func liveRefunds(_ resources: AppResources) -> any RefundStore {
        PostgresRefundStore(
            database: resources.pool, itemCache: resources.itemCache, taxRounding: resources.config.taxPolicy.rounding)
    }

    /// The `payments` port: the provider, none when no payment API is configured.
    static func livePayments(_ resources: AppResources) -> (any PaymentGateway)? {
        OrderContainer.live(resources).payments
    }

    /// The `action_timeout` port: how long stock waits on a customer's 3-D Secure step.
    static func liveActionTimeout(_ resources: AppResources) -> Duration {
        resources.config.paymentActionTimeout
    }
}
