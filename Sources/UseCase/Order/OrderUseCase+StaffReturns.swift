// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/admin/returns` (auth: admin): every customer's returns, newest first, narrowed to
    /// a status (`requested`: those to decide).
    /// - Throws: `ValidationError` for a bad limit or cursor, `StoreUnavailable`.
    public func staffReturns(_ input: OrderStaffReturnsInput) async throws -> OrderStaffReturnsOutcome {
        let page = try PageRequest(limit: input.limit, cursor: input.cursor, defaultLimit: 20)
        let found = try await returns.staffPage(status: input.status, after: page.after, limit: page.fetchLimit)
        return .page(Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) })
    }
}
