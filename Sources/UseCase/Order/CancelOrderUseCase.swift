import Domain
import Foundation

/// Cancels an order: a pending one is cancelled at the provider and restocked; a paid one is
/// refunded in full and restocked once the provider says the refund succeeded. Each state change
/// is claimed with a conditional update before or after the provider call so that concurrent
/// cancels, checkouts and reconcilers agree.
public struct CancelOrderUseCase: Sendable {
    let store: any OrderStore
    let payments: any PaymentGateway
    let system: SystemContext

    public init(store: any OrderStore, payments: any PaymentGateway, system: SystemContext) {
        self.store = store
        self.payments = payments
        self.system = system
    }

    /// - Returns: the order `cancelled`, `refunded`, or `refund_pending` when the provider has not
    ///   settled the refund yet (the reconciler will).
    /// - Throws: `OrderError.orderNotFound` (also another customer's), `.notCancellable`, `.refundUnsettled`,
    ///   `.refundFailed` (the order stays paid), `PaymentError` when the provider refuses or cannot
    ///   settle it now (try again), `StoreUnavailable`.
    public func cancel(orderID: UUID, customerID: UUID) async throws -> Order {
        guard let order = try await store.order(id: orderID, customerID: customerID) else { throw OrderError.orderNotFound(orderID) }
        switch order.status {
        case .pendingPayment, .requiresAction: return try await cancelPending(order)
        case .paid:
            // Once the first shipment left, a return is asked for instead.
            guard order.fulfilmentStatus == .unfulfilled else { throw OrderError.notCancellable(order.progress) }
            return try await refund(order)
        case .paymentFailed, .cancelled, .refundPending, .refunded: throw OrderError.notCancellable(order.progress)
        }
    }

    private func cancelPending(_ order: Order) async throws -> Order {
        if let paymentID = order.paymentIntentID {
            do {
                _ = try await payments.cancelPayment(
                    id: paymentID, idempotencyKey: PaymentAttemptKey.key("cancel", of: order, attempt: system.newID()))
            } catch let error as PaymentError where !error.outcomeUnknown {
                // The provider refuses to cancel: the payment may have succeeded meanwhile, or been
                // canceled already (by a cancel racing this one, or a failed payment's settlement).
                switch try await payments.payment(id: paymentID).status {
                case .succeeded:
                    _ = try await store.markPaid(orderID: order.id, at: system.now())
                    return try await refund(try await reload(order))
                case .canceled: break
                default: throw error
                }
            }
        }
        if try await store.transition(orderID: order.id, from: order.status, to: .cancelled, restock: true, by: .customer, at: system.now())
        {
            return try await reload(order)
        }
        let current = try await reload(order)
        if current.status == .paid { return try await refund(current) }
        throw OrderError.notCancellable(current.progress)
    }

    /// Claims paid -> refund_pending, then refunds (see `OrderRefunds`). Stock comes back only
    /// with a succeeded refund, so a crash or a lost answer leaves stock short, never oversold.
    private func refund(_ order: Order) async throws -> Order {
        guard let paymentID = order.paymentIntentID,
            try await store.transition(orderID: order.id, from: .paid, to: .refundPending, restock: false, by: .customer, at: system.now())
        else {
            let current = try await reload(order)
            if current.status == .paid && current.refunds.contains(where: { $0.status == .pending || $0.status == .requiresAction }) {
                throw OrderError.refundUnsettled
            }
            throw OrderError.notCancellable(current.progress)
        }
        // Read again after the claim: the staff refunds it leaves standing cannot change now.
        let claimed = try await reload(order)
        let status = try await OrderRefunds(store: store, payments: payments, system: system, actor: .customer).issue(
            claimed, paymentID: paymentID)
        let current = try await reload(order)
        if status == .paid { throw OrderError.refundFailed(current.refund?.status ?? .failed) }
        return current
    }

    private func reload(_ order: Order) async throws -> Order {
        guard let current = try await store.order(id: order.id, customerID: order.customerID) else {
            throw OrderError.orderNotFound(order.id)
        }
        return current
    }
}
