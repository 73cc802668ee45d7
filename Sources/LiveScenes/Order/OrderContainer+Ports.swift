// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Order scene's hand-written ports.
extension OrderContainer {
    /// The `store` port: orders and their lines on PostgreSQL, priced in the shop's currency and
    /// taxed by its tax settings.
    static func liveStore(_ resources: AppResources) -> any OrderStore {
        postgresOrders(resources)
    }

    private static func postgresOrders(_ resources: AppResources) -> PostgresOrderStore {
        PostgresOrderStore(
            database: resources.pool, currency: resources.config.currency, taxPolicy: resources.config.taxPolicy,
            itemCache: resources.itemCache)
    }

    /// The `fulfilment` port: shipments and the staff's view of orders on PostgreSQL, reading
    /// orders as the `store` port does.
    static func liveFulfilment(_ resources: AppResources) -> any FulfilmentStore {
        PostgresFulfilmentStore(orders: postgresOrders(resources))
    }

    /// The `returns` port: customers' returns on PostgreSQL.
    static func liveReturns(_ resources: AppResources) -> any ReturnStore {
        PostgresReturnStore(database: resources.pool)
    }

    /// The `refund_store` port: the staff's refunds on PostgreSQL.
    static func liveRefundStore(_ resources: AppResources) -> any RefundStore {
        PostgresRefundStore(
            database: resources.pool, itemCache: resources.itemCache, taxRounding: resources.config.taxPolicy.rounding)
    }

    /// The `payments` port: the provider at `PAYMENT_API_URL`; none without it (checkout,
    /// cancel, refresh and refunds answer 503, orders are still read).
    static func livePayments(_ resources: AppResources) -> (any PaymentGateway)? {
        resources.config.payment.map {
            StripePaymentGateway(baseURL: $0.url, secretKey: $0.key, timeout: resources.config.paymentTimeout)
        }
    }

    /// The `checkout_deadline` port: the most a checkout's answer waits for the provider.
    static func liveCheckoutDeadline(_ resources: AppResources) -> Duration {
        resources.config.checkoutDeadline
    }

    /// The `invoice_issuer` port: the shop's name and registration number on invoices; none until
    /// both are configured (`GET /v1/orders/{id}/invoice` answers 503).
    static func liveInvoiceIssuer(_ resources: AppResources) -> InvoiceIssuer? {
        resources.config.invoiceIssuer
    }

    /// The `awaiting_payment_limit` port: the most orders one customer may have waiting for payment
    /// when checking out again (`MAX_ORDERS_AWAITING_PAYMENT`).
    static func liveAwaitingPaymentLimit(_ resources: AppResources) -> Int {
        resources.config.maxOrdersAwaitingPayment
    }

    /// The `currency` port: the shop's currency (`SHOP_CURRENCY`), in which the provider's
    /// minimum charge is read.
    static func liveCurrency(_ resources: AppResources) -> Currency {
        resources.config.currency
    }

    /// The `action_timeout` port: how long stock stays reserved for a payment waiting on the customer.
    static func liveActionTimeout(_ resources: AppResources) -> Duration {
        resources.config.paymentActionTimeout
    }
}
