import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `OrderContainer`.
extension OrderContainer {
    public static func live(_ resources: AppResources) -> OrderContainer {
        let payments = resources.config.payment.map {
            StripePaymentGateway(baseURL: $0.url, secretKey: $0.key, timeout: resources.config.paymentTimeout)
        }
        return OrderContainer(
            store: PostgresOrderStore(database: resources.pool, currency: resources.config.currency),
            refundStore: PostgresRefundStore(database: resources.pool), payments: payments, system: resources.system,
            checkoutDeadline: resources.config.checkoutDeadline, actionTimeout: resources.config.paymentActionTimeout)
    }
}
