import Foundation

/// Where orders live. Stock reservation and release happen here, in database transactions.
public protocol OrderStore: Sendable {
    /// In one transaction: records the idempotency key, reserves stock for every line of the
    /// customer's cart with conditional updates, and creates the order `pending_payment` with
    /// prices frozen. With a key already used it returns that order instead and changes nothing.
    /// - Returns: the order and whether this call created it.
    /// - Throws: `OrderError.emptyCart`, `.insufficientStock`, `.unavailableItems`,
    ///   `.awaitingPayment` (as many orders waiting as `request.awaitingPaymentLimit`),
    ///   `.checkoutInProgress` (an order of the customer's placed within `request.paymentUnderWay`
    ///   still `pending_payment`), `.belowMinimumCharge` (a total below `request.minimumCharge`), `.aboveMaximumCharge`
    ///   (above `request.maximumCharge`), the shipping errors
    ///   (nothing reserved for any of them), `.idempotencyKeyReused` (same key, other
    ///   fingerprint), `StoreUnavailable`.
    func placeOrder(id: UUID, request: CheckoutRequest, at: Date) async throws -> (order: Order, created: Bool)
    /// Records the payment's id on an order that is still pending.
    /// - Returns: false when the order left `pending_payment` meanwhile (cancelled): the caller
    ///   must not confirm the payment.
    /// - Throws: `StoreUnavailable`.
    func attachPayment(orderID: UUID, paymentIntentID: String, at: Date) async throws -> Bool
    /// Pending or requires_action -> paid; takes the bought units out of the cart (a line the
    /// customer raised meanwhile keeps the rest). No-op otherwise.
    /// - Throws: `StoreUnavailable`.
    func markPaid(orderID: UUID, at: Date) async throws -> Order
    /// Pending or requires_action -> payment_failed and the reserved stock back. No-op otherwise.
    /// - Throws: `StoreUnavailable`.
    func markPaymentFailed(orderID: UUID, declineCode: String, at: Date) async throws -> Order
    /// Pending -> requires_action, recording what the app needs and until when the stock stays
    /// reserved.
    /// - Returns: the order, or nil when it was no longer pending.
    /// - Throws: `StoreUnavailable`.
    func markRequiresAction(orderID: UUID, action: PaymentAction, expiresAt: Date, at: Date) async throws -> Order?
    /// Claims up to `limit` orders `requires_action` whose deadline passed before `expiry`, the
    /// least recently changed first: their last change becomes `at`, as
    /// `claimRefundPendingOrders` does. One claimed before (changed after its deadline) is
    /// claimed again only once that change is before `cutoff`; the first claim waits for nothing
    /// but the deadline, however short `PAYMENT_ACTION_TIMEOUT_SECONDS` is.
    /// - Throws: `StoreUnavailable`.
    func claimOrdersAwaitingAction(expiredBefore expiry: Date, changedBefore cutoff: Date, at: Date, limit: Int) async throws
        -> [Order]
    /// The order paid by this PaymentIntent, whoever's it is (for the provider's webhooks).
    /// - Throws: `StoreUnavailable`.
    func order(paymentIntentID: String) async throws -> Order?
    /// The customer's order, or nil (also for another customer's).
    /// - Throws: `StoreUnavailable`.
    func order(id: UUID, customerID: UUID) async throws -> Order?
    /// The customer's orders, newest first, those at `progress` when given, after `cursor`.
    /// - Throws: `StoreUnavailable`.
    func orders(customerID: UUID, progress: OrderProgress?, after cursor: PageCursor?, limit: Int) async throws -> [Order]
    /// Claims up to `limit` orders still `pending_payment` whose last change (their placing, their
    /// payment's id, an earlier claim) was before `cutoff`, the least recently changed first:
    /// their last change becomes `at`, as `claimRefundPendingOrders` does. An order the
    /// provider cannot answer about then waits its turn behind the others instead of taking the
    /// head of every pass.
    /// - Throws: `StoreUnavailable`.
    func claimPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order]
    /// Claims up to `limit` orders `refund_pending` whose last change was before `cutoff`, the
    /// least recently changed first: their last change becomes `at`, so another instance's pass
    /// leaves them alone until `cutoff` passes them again (a refund asked for again is asked for
    /// once), and one that stays unsettled goes behind the others.
    /// - Throws: `StoreUnavailable`.
    func claimRefundPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order]
    /// Moves the order from `from` to `to` if it is still in `from`, returning stock to the items
    /// and recording `refund` (when given) in the same transaction. Staff refunds count:
    /// `paid -> refund_pending` claims what they left of the total, only while none of them is
    /// unsettled; back to `paid` gives them their share again; a restock skips what they restocked.
    /// The order's event of the change names `actor`.
    /// - Returns: whether the order moved (false: it was not in `from`, or a staff refund is unsettled).
    /// - Throws: `StoreUnavailable`.
    func transition(
        orderID: UUID, from: OrderStatus, to: OrderStatus, restock: Bool, refund: RefundRecord?, by actor: EventActor, at: Date
    ) async throws -> Bool
}

extension OrderStore {
    /// `transition` recording no refund.
    /// - Throws: `StoreUnavailable`.
    public func transition(
        orderID: UUID, from: OrderStatus, to: OrderStatus, restock: Bool, by actor: EventActor = .system, at: Date
    ) async throws -> Bool {
        try await transition(orderID: orderID, from: from, to: to, restock: restock, refund: nil, by: actor, at: at)
    }
}
