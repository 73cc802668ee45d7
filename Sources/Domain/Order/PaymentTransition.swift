/// The one transition function over an order's payment state. Every input about a payment - the
/// checkout's own answer, the app's refresh, a webhook, the reconciler - is the provider's
/// PaymentIntent as last read, and goes through `PaymentTransition(order:intent:)`; the store
/// applies the result with conditional updates from the state the order was read in. So inputs in
/// any order, any number of times, on any instance, end in the same state, and:
/// - an order is paid only on a succeeded (or capturable) intent;
/// - it fails (stock back) only on a definite provider status (`canceled`, or a confirmation that
///   failed, `requires_payment_method`);
/// - `processing` and `requires_confirmation` change nothing: the outcome is not known yet.
/// Only orders still waiting on their payment move; settled ones never do. An order whose app
/// confirms the payment itself (the payment sheet) waits on the app until the payment succeeds or
/// is cancelled: a payment without a method, or one that needs 3-D Secure, is the app's to finish.
public enum PaymentTransition: Hashable, Sendable {
    case paid
    /// The provider waits on the customer (3-D Secure).
    case requiresAction(PaymentAction)
    /// The payment definitely did not happen; the reserved stock goes back.
    case failed(declineCode: String)
    case unchanged

    /// - Parameter confirmedByApp: the order was checked out without a payment method.
    public init(order status: OrderStatus, intent: PaymentIntent, confirmedByApp: Bool = false) {
        guard status == .pendingPayment || status == .requiresAction else {
            self = .unchanged
            return
        }
        if confirmedByApp {
            self = Self.confirmedByApp(status, intent)
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
            self = .failed(declineCode: status == .requiresAction ? "authentication_failed" : Order.unspecifiedDeclineCode)
        case .processing, .requiresConfirmation:
            self = .unchanged
        }
    }

    /// The payment sheet: the app confirms, so only success or cancellation settles the order;
    /// anything else leaves it waiting on the app, with the client secret it confirms with.
    private static func confirmedByApp(_ status: OrderStatus, _ intent: PaymentIntent) -> PaymentTransition {
        switch intent.status {
        case .succeeded, .requiresCapture:
            return .paid
        case .canceled:
            return .failed(declineCode: "payment_canceled")
        case .requiresPaymentMethod, .requiresConfirmation, .requiresAction:
            guard status == .pendingPayment, let secret = intent.clientSecret else { return .unchanged }
            return .requiresAction(intent.action ?? PaymentAction(clientSecret: secret, nextActionType: "confirm_payment"))
        case .processing:
            return .unchanged
        }
    }
}
