/// The one transition function over an order's payment state. Every input about a payment - the
/// checkout's own answer, the app's refresh, a webhook, the reconciler - is the provider's
/// PaymentIntent as last read, and goes through `PaymentTransition(order:intent:)`; the store
/// applies the result with conditional updates from the state the order was read in. So inputs in
/// any order, any number of times, on any instance, end in the same state, and:
/// - an order is paid only on a succeeded (or capturable) intent;
/// - it fails (stock back) only on a definite provider status (`canceled`, or a confirmation that
///   failed, `requires_payment_method`);
/// - `processing` and `requires_confirmation` change nothing: the outcome is not known yet.
/// Only orders still waiting on their payment move; settled ones never do.
public enum PaymentTransition: Hashable, Sendable {
    case paid
    /// The provider waits on the customer (3-D Secure).
    case requiresAction(PaymentAction)
    /// The payment definitely did not happen; the reserved stock goes back.
    case failed(declineCode: String)
    case unchanged

    public init(order status: OrderStatus, intent: PaymentIntent) {
        guard status == .pendingPayment || status == .requiresAction else {
            self = .unchanged
            return
        }
        switch intent.status {
        case .succeeded, .requiresCapture:
            self = .paid
        case .requiresAction:
            if status == .pendingPayment, let action = intent.action {
                self = .requiresAction(action)
            } else {
                self = .unchanged
            }
        case .canceled:
            self = .failed(declineCode: status == .requiresAction ? "authentication_abandoned" : "payment_canceled")
        case .requiresPaymentMethod:
            // A payment method was given at creation, so this follows a confirmation that failed:
            // declined, or 3-D Secure refused.
            self = .failed(declineCode: status == .requiresAction ? "authentication_failed" : "payment_failed")
        case .processing, .requiresConfirmation:
            self = .unchanged
        }
    }
}
