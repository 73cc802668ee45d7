// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/orders/{id}` (auth: customer): one of the customer's orders; another
    /// customer's is not found.
    /// - Throws: `StoreUnavailable`.
    public func show(_ input: OrderShowInput) async throws -> OrderShowOutcome {
        guard let order = try await store.order(id: input.id, customerID: input.customerID) else { return .notFound(id: input.id) }
        return .order(order)
    }
}
