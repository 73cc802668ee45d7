import Domain
import Foundation

/// Applies what the provider says of an order's payment: `PaymentTransition`, then the store's
/// conditional update from the state the order was read in. Checkout, the app's refresh, the
/// webhooks and the reconciler all settle payments through this one path.
struct PaymentSettlement: Sendable {
    let store: any OrderStore
    let system: SystemContext
    /// How long the stock stays reserved for a payment waiting on the customer.
    let actionTimeout: Duration

    /// - Returns: the order as it stands after the provider's word was applied.
    /// - Throws: `StoreUnavailable`.
    func apply(_ intent: PaymentIntent, to order: Order) async throws -> Order {
        let now = system.now()
        switch PaymentTransition(order: order.status, intent: intent, confirmedByApp: order.confirmedByApp) {
        case .paid:
            return try await store.markPaid(orderID: order.id, at: now)
        case .failed(let code):
            return try await store.markPaymentFailed(orderID: order.id, declineCode: code, at: now)
        case .requiresAction(let action):
            let expiresAt = now.addingTimeInterval(TimeInterval(actionTimeout.components.seconds))
            if let moved = try await store.markRequiresAction(orderID: order.id, action: action, expiresAt: expiresAt, at: now) {
                return moved
            }
            return try await store.order(id: order.id, customerID: order.customerID) ?? order
        case .unchanged:
            return order
        }
    }
}
