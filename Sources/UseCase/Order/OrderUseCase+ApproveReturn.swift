// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/admin/returns/{id}/approve` (auth: admin): the customer may send the units back.
    /// - Throws: `StoreUnavailable`.
    public func approveReturn(_ input: OrderApproveReturnInput) async throws -> OrderApproveReturnOutcome {
        do {
            return .approved(try await returns.move(id: input.id, from: .requested, to: .approved, restock: nil, at: system.now()))
        } catch ReturnError.returnNotFound {
            return .notFound(id: input.id)
        } catch ReturnError.wrongState(let status) {
            return .returnNotRequested(returnStatus: status.rawValue)
        }
    }
}
