// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/admin/orders` (auth: admin): every customer's orders, newest first, narrowed to
    /// a status and to `q`: an order's id or its start, its customer's email (any case) or a SKU it holds.
    /// - Throws: `ValidationError` for a bad limit or cursor, `StoreUnavailable`.
    public func staffList(_ input: OrderStaffListInput) async throws -> OrderStaffListOutcome {
        let page = try PageRequest(limit: input.limit, cursor: input.cursor, defaultLimit: 20)
        let found = try await fulfilment.staffPage(
            matching: StaffOrderFilter(progress: input.status, query: input.q), after: page.after, limit: page.fetchLimit)
        return .page(Page(fetched: found, request: page) { PageCursor(createdAt: $0.order.createdAt, id: $0.order.id) })
    }
}
