import Domain
import Gateway
import UseCase

/// The Order scene's dependencies. `payments` is nil when no payment provider is configured;
/// checkout then answers 503 while orders can still be read.
public struct OrderContainer: Sendable {
    public let store: any OrderStore
    /// Staff refunds; nil leaves them out (the admin route answers 503).
    public let refundStore: (any RefundStore)?
    public let payments: (any PaymentGateway)?
    public let system: SystemContext

    public init(store: any OrderStore, refundStore: (any RefundStore)? = nil, payments: (any PaymentGateway)?, system: SystemContext) {
        self.store = store
        self.refundStore = refundStore
        self.payments = payments
        self.system = system
    }

    public static func live(_ resources: AppResources) -> OrderContainer {
        let payments = resources.config.payment.map {
            StripePaymentGateway(baseURL: $0.url, secretKey: $0.key, timeout: resources.config.paymentTimeout)
        }
        return OrderContainer(
            store: PostgresOrderStore(database: resources.pool, currency: resources.config.currency),
            refundStore: PostgresRefundStore(database: resources.pool), payments: payments,
            system: resources.system)
    }

    public var history: OrderHistoryUseCase { OrderHistoryUseCase(store: store) }

    /// The reconciler, or nil without a payment provider.
    public var reconciler: ReconcileUseCase? {
        payments.map { ReconcileUseCase(store: store, refunds: refundStore, payments: $0, system: system) }
    }

    /// Cancellation and refunds, or nil without a payment provider.
    public var cancellation: CancelOrderUseCase? {
        payments.map { CancelOrderUseCase(store: store, payments: $0, system: system) }
    }

    /// The staff's refunds, or nil without a payment provider or a refund store.
    public var refunds: RefundOrderUseCase? {
        guard let payments, let refundStore else { return nil }
        return RefundOrderUseCase(store: refundStore, payments: payments, system: system)
    }

    /// The checkout use case, or nil without a payment provider.
    public var useCase: OrderUseCase? {
        payments.map { OrderUseCase(store: store, payments: $0, system: system) }
    }
}
