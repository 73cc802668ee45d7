import Domain
import UseCase

/// The Order scene's dependencies. `payments` is nil when no payment provider is configured;
/// checkout then answers 503 while orders can still be read.
public struct OrderContainer: Sendable {
    public let store: any OrderStore
    /// Staff refunds; nil leaves them out (the admin route answers 503).
    public let refundStore: (any RefundStore)?
    public let payments: (any PaymentGateway)?
    public let system: SystemContext
    /// The most a checkout answer waits for the provider (`CHECKOUT_DEADLINE_SECONDS`).
    public let checkoutDeadline: Duration
    /// How long stock stays reserved for a payment waiting on the customer
    /// (`PAYMENT_ACTION_TIMEOUT_SECONDS`).
    public let actionTimeout: Duration

    public init(
        store: any OrderStore, refundStore: (any RefundStore)? = nil, payments: (any PaymentGateway)?, system: SystemContext,
        checkoutDeadline: Duration = .seconds(10), actionTimeout: Duration = .seconds(900)
    ) {
        self.store = store
        self.refundStore = refundStore
        self.payments = payments
        self.system = system
        self.checkoutDeadline = checkoutDeadline
        self.actionTimeout = actionTimeout
    }

    public var history: OrderHistoryUseCase { OrderHistoryUseCase(store: store) }

    /// The reconciler, or nil without a payment provider.
    public var reconciler: ReconcileUseCase? {
        payments.map {
            ReconcileUseCase(store: store, refunds: refundStore, payments: $0, system: system, actionTimeout: actionTimeout)
        }
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
        payments.map {
            OrderUseCase(store: store, payments: $0, system: system, deadline: checkoutDeadline, actionTimeout: actionTimeout)
        }
    }
}
