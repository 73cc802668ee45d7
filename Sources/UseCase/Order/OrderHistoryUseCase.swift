import Domain
import Foundation

/// Reading the customer's own orders; works without a payment provider.
public struct OrderHistoryUseCase: Sendable {
    let store: any OrderStore

    public init(store: any OrderStore) {
        self.store = store
    }

    /// The customer's orders, newest first.
    /// - Throws: `ValidationError`, `StoreUnavailable`.
    public func orders(customerID: UUID, limit: Int?, cursor: String?) async throws -> Page<Order> {
        let pageLimit = try PageLimit(limit)
        let position = cursor.map(PageCursor.init(token:))
        if position == .some(nil) { throw ValidationError([FieldError("cursor", "is not a cursor this service issued")]) }
        let found = try await store.orders(customerID: customerID, after: position ?? nil, limit: pageLimit.value + 1)
        let orders = Array(found.prefix(pageLimit.value))
        let next = found.count > pageLimit.value ? orders.last.map { PageCursor(createdAt: $0.createdAt, id: $0.id) } : nil
        return Page(items: orders, nextCursor: next)
    }

    /// - Throws: `OrderError.orderNotFound` (also for another customer's order), `StoreUnavailable`.
    public func order(id: UUID, customerID: UUID) async throws -> Order {
        guard let order = try await store.order(id: id, customerID: customerID) else { throw OrderError.orderNotFound(id) }
        return order
    }
}
