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
        let page = try PageRequest(limit: limit, cursor: cursor)
        let found = try await store.orders(customerID: customerID, after: page.after, limit: page.fetchLimit)
        return Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }
    }

    /// - Throws: `OrderError.orderNotFound` (also for another customer's order), `StoreUnavailable`.
    public func order(id: UUID, customerID: UUID) async throws -> Order {
        guard let order = try await store.order(id: id, customerID: customerID) else { throw OrderError.orderNotFound(id) }
        return order
    }
}
