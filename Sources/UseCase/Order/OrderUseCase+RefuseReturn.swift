// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/admin/returns/{id}/refuse` (auth: admin): the units stay with the customer and
    /// may be asked for again.
    /// - Throws: `StoreUnavailable`.
    public func refuseReturn(_ input: OrderRefuseReturnInput) async throws -> OrderRefuseReturnOutcome {
        do {
            return .refused(try await returns.move(id: input.id, from: .requested, to: .refused, restock: nil, at: system.now()))
        } catch ReturnError.returnNotFound {
            return .notFound(id: input.id)
        } catch ReturnError.wrongState(let status) {
            return .returnNotRequested(returnStatus: status.rawValue)
        }
    }
}
