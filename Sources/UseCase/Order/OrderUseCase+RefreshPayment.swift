// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/orders/{id}/payment/refresh` (auth: customer): the app's "I'm back" after
    /// 3-D Secure; the order is settled from what the provider says, never the client's word.
    /// - Throws: `StoreUnavailable`.
    public func refreshPayment(_ input: OrderRefreshPaymentInput) async throws -> OrderRefreshPaymentOutcome {
        guard let payments else { return .paymentsNotConfigured }
        let checkout = OrderCheckout(
            store: store, payments: payments, system: system, deadline: checkoutDeadline, actionTimeout: actionTimeout)
        do {
            return .order(try await checkout.refresh(orderID: input.id, customerID: input.customerID))
        } catch OrderError.orderNotFound {
            return .notFound(id: input.id)
        } catch let error as PaymentError {
            return .paymentProviderError(reason: error.outcomeUnknown ? "no answer" : "refused")
        }
    }
}
