// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/orders/{id}/returns` (auth: customer): asks to send shipped units back, with a
    /// reason; the staff approve or refuse it, and refund it on receipt.
    /// - Throws: `ValidationError` for a variant named twice; `StoreUnavailable`.
    public func requestReturn(_ input: OrderRequestReturnInput) async throws -> OrderRequestReturnOutcome {
        let repeated = DistinctLines.errors(input.lines.map(\.variantID))
        guard repeated.isEmpty else { throw ValidationError(repeated) }
        do {
            return .requested(
                try await returns.request(
                    id: system.newID(), orderID: input.id, customerID: input.customerID,
                    lines: input.lines.map { RefundLine(variantID: $0.variantID, quantity: $0.quantity) }, reason: input.reason,
                    at: system.now()))
        } catch let error as ReturnError {
            switch error {
            case .orderNotFound: return .notFound(id: input.id)
            case .notReturnable(let progress): return .orderNotReturnable(orderStatus: progress.rawValue)
            case .notOrdered(let index):
                return .beyondReturnable(errors: [FieldError("lines[\(index)].variant_id", DistinctLines.notOrdered)])
            case .beyondReturnable(let index, let left):
                return .beyondReturnable(errors: [
                    FieldError("lines[\(index)].quantity", "must be at most \(left), the shipped units no other return holds")
                ])
            case .returnNotFound, .wrongState, .notRefunded: throw error
            }
        }
    }
}
