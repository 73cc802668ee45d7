// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/orders/{id}/cancel` (auth: customer): cancels a pending payment, or refunds a
    /// paid order (what staff refunds left) and puts its stock back once the refund succeeds
    /// (`CancelOrderUseCase`); a refund not settled yet answers 202 `refund_pending`.
    /// - Throws: `StoreUnavailable`.
    public func cancel(_ input: OrderCancelInput) async throws -> OrderCancelOutcome {
        guard let payments else { return .paymentsNotConfigured }
        let cancellation = CancelOrderUseCase(store: store, payments: payments, system: system)
        do {
            let order = try await cancellation.cancel(orderID: input.id, customerID: input.customerID)
            return order.status == .refundPending ? .refundPending(order) : .cancelled(order)
        } catch let error as OrderError {
            switch error {
            case .orderNotFound: return .notFound(id: input.id)
            case .notCancellable(let status): return .orderNotCancellable(orderStatus: status.rawValue)
            case .refundUnsettled: return .refundUnsettled(orderStatus: OrderStatus.paid.rawValue)
            case .refundFailed(let status): return .refundFailed(refundStatus: status.rawValue)
            default: throw error
            }
        } catch let error as PaymentError {
            return .paymentProviderError(reason: error.outcomeUnknown ? "no answer" : "refused")
        }
    }
}
