import Foundation

/// Where staff refunds live. The amount and the quantities a refund claims are reserved in the
/// database, bounded by what was captured and ordered, before the provider is asked.
public protocol RefundStore: Sendable {
    /// In one transaction: records the refund `pending` under its idempotency key and reserves
    /// its amount on the order and its restock lines on the order's lines, each with a
    /// conditional update, so concurrent refunds can never together exceed the captured total.
    /// With a key already used it returns that refund and changes nothing.
    /// - Returns: the refund and whether this call created it.
    /// - Throws: `RefundError` (`.orderNotFound`, `.notRefundable`, `.exceedsCaptured`,
    ///   `.foreignCurrency`, `.invalid`, `.idempotencyKeyReused`),
    ///   `ReturnError.wrongState` when the request's return is no longer approved,
    ///   `StoreUnavailable`.
    func reserveRefund(id: UUID, request: RefundRequest, at: Date) async throws -> (refund: Refund, created: Bool)
    /// Records the provider's answer (`status`, and its refund id when it gave one) on a refund
    /// that is not settled yet. In the same
    /// transaction: `succeeded` restocks its lines (once: only the first settlement moves it) and
    /// makes the order `refunded` once everything captured was refunded; `failed` or `canceled`
    /// gives its amount and lines back. A settled refund is left as it is.
    /// - Returns: the refund as recorded now.
    /// - Throws: `StoreUnavailable`.
    func recordRefund(id: UUID, status: RefundStatus, providerRefundID: String?, at: Date) async throws -> Refund
    /// The order's refunds not settled yet, oldest first: what a refund event may settle.
    /// - Throws: `StoreUnavailable`.
    func unsettledRefunds(orderID: UUID) async throws -> [Refund]
    /// Claims up to `limit` refunds not settled whose last change was before `cutoff`, oldest
    /// first: their last change becomes `at`, so a concurrent pass leaves them alone.
    /// - Throws: `StoreUnavailable`.
    func claimUnsettledRefunds(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Refund]
}
