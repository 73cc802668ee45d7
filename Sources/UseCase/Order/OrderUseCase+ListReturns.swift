// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `GET /v1/orders/{id}/returns` (auth: customer): the returns asked for of one of the
    /// customer's orders, oldest first, with where each stands.
    /// - Throws: `StoreUnavailable`.
    public func listReturns(_ input: OrderListReturnsInput) async throws -> OrderListReturnsOutcome {
        guard let found = try await returns.returns(orderID: input.id, customerID: input.customerID) else {
            return .notFound(id: input.id)
        }
        return .returns(ReturnList(data: found))
    }
}
