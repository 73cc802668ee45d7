// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/admin/orders/{id}/refunds` (auth: admin): a staff refund, partial or full, never
    /// past what was captured (`RefundOrderUseCase`); a replayed key answers the first refund.
    /// - Throws: `ValidationError` for lines beyond what was ordered or restocked, or a key a
    ///   return's refund would have; `StoreUnavailable`.
    public func refund(_ input: OrderRefundInput) async throws -> OrderRefundOutcome {
        guard let payments else { return .paymentsNotConfigured }
        // A return's refund is keyed `return-<its id>` (`receiveReturn`): a staff refund under such
        // a key was taken for the return's, which then could not be received either way.
        if input.idempotencyKey.hasPrefix(ReturnRefundKey.prefix) {
            throw ValidationError([
                FieldError("idempotency_key", "must not begin with \(ReturnRefundKey.prefix): those are the keys of returns' refunds")
            ])
        }
        let refunds = RefundOrderUseCase(store: refundStore, payments: payments, system: system)
        let request = RefundRequest(
            orderID: input.id, amount: input.amount,
            lines: (input.lines ?? []).map { RefundLine(variantID: $0.variantID, quantity: $0.quantity) },
            reason: input.reason, restock: input.restock, idempotencyKey: input.idempotencyKey)
        do {
            switch try await refunds.refund(request) {
            case .succeeded(let refund): return .succeeded(refund)
            case .pending(let refund): return .pending(refund)
            case .failed(let refund): return .refundFailed(refundID: refund.id, refundStatus: refund.status.rawValue)
            }
        } catch let error as RefundError {
            switch error {
            case .orderNotFound: return .notFound(id: input.id)
            case .notRefundable(let status): return .orderNotRefundable(orderStatus: status.rawValue)
            case .exceedsCaptured(let remaining):
                return .refundExceedsCaptured(remaining: remaining)
            case .invalid(let errors): throw ValidationError(errors)
            case .foreignCurrency(let currency):
                throw ValidationError([FieldError("amount.currency", "must be the order's currency (\(currency.code))")])
            case .idempotencyKeyReused: return .idempotencyKeyReused
            }
        }
    }
}
