import Domain
import UseCase

/// The webhook endpoint's dependencies: the order scene's, the provider's signature check and
/// where events are recorded. `verifier` is nil when `PAYMENT_WEBHOOK_SECRET` is unset: the
/// endpoint then answers 404 and payments are settled by refresh and the reconciler alone.
public struct PaymentWebhookContainer: Sendable {
    public let orders: OrderContainer
    public let events: any PaymentEventStore
    public let verifier: (any PaymentEventVerifier)?

    public init(orders: OrderContainer, events: any PaymentEventStore, verifier: (any PaymentEventVerifier)?) {
        self.orders = orders
        self.events = events
        self.verifier = verifier
    }

    /// The use case, or nil without a payment provider or a webhook secret.
    public var useCase: PaymentWebhookUseCase? {
        guard let verifier, let payments = orders.payments else { return nil }
        return PaymentWebhookUseCase(
            verifier: verifier, events: events, orders: orders.store, payments: payments, system: orders.system,
            actionTimeout: orders.actionTimeout, refunds: orders.refundStore)
    }
}
