// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/admin/orders/{id}` (auth: admin): any customer's order, with the customer's
    /// email, its shipments and its events with their actors.
    /// - Throws: `StoreUnavailable`.
    public func staffShow(_ input: OrderStaffShowInput) async throws -> OrderStaffShowOutcome {
        guard let order = try await fulfilment.staffOrder(id: input.id) else { return .notFound(id: input.id) }
        return .order(order)
    }
}
