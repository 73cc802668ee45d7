// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/orders` (auth: customer): the customer's orders, newest first, narrowed to one
    /// progress when asked (`delivered`; `paid` is paid and not shipped yet).
    /// - Throws: `ValidationError` for a bad limit or cursor; `StoreUnavailable`.
    public func list(_ input: OrderListInput) async throws -> OrderListOutcome {
        let page = try PageRequest(limit: input.limit, cursor: input.cursor)
        let found = try await store.orders(
            customerID: input.customerID, progress: input.status, after: page.after, limit: page.fetchLimit)
        return .page(Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) })
    }
}
