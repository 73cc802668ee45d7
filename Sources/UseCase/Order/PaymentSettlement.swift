import Domain
import Foundation

/// Applies what the provider says of an order's payment: `PaymentTransition`, then the store's
/// conditional update from the state the order was read in. Checkout, the app's refresh, the
/// webhooks and the reconciler all settle payments through this one path.
struct PaymentSettlement: Sendable {
    let store: any OrderStore
    let payments: any PaymentGateway
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
            if intent.status != .canceled, !(try await cancel(intent, of: order)) { return order }
            return try await store.markPaymentFailed(orderID: order.id, declineCode: code, at: now)
        case .requiresAction(let action):
            let expiresAt = now + actionTimeout
            if let moved = try await store.markRequiresAction(orderID: order.id, action: action, expiresAt: expiresAt, at: now) {
                return moved
            }
            return try await store.order(id: order.id, customerID: order.customerID) ?? order
        case .unchanged:
            return order
        }
    }

    /// A failed payment that is not canceled still takes another card (`requires_payment_method`
    /// after 3-D Secure was refused): an app holding its client secret could confirm it, and
    /// charge the customer for an order whose stock went back. So it is canceled before the order
    /// fails.
    /// - Returns: whether it is canceled now; when not (the provider refused or cannot be
    ///   reached), the order stays as it is and the reconciler asks again later.
    private func cancel(_ intent: PaymentIntent, of order: Order) async throws -> Bool {
        do {
            let key = PaymentAttemptKey.key("fail", of: order, attempt: system.newID())
            return try await payments.cancelPayment(id: intent.id, idempotencyKey: key).status == .canceled
        } catch is PaymentError {
            return false
        }
    }
}
