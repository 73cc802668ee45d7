import Foundation

/// A payment at the provider (a Stripe PaymentIntent), as much of it as the shop needs.
public struct PaymentIntent: Hashable, Sendable {
    public let id: String
    public let status: PaymentStatus
    public let amount: Money
    /// What the customer's app needs to finish the payment itself (3-D Secure): present while the
    /// provider waits on the customer (`requires_action`).
    public let action: PaymentAction?
    /// The secret the customer's app confirms the payment with (the payment sheet flow).
    public let clientSecret: String?

    public init(id: String, status: PaymentStatus, amount: Money, action: PaymentAction? = nil, clientSecret: String? = nil) {
        self.id = id
        self.status = status
        self.amount = amount
        self.action = action
        self.clientSecret = clientSecret ?? action?.clientSecret
    }
}

/// A payment waiting on the customer: the provider's SDK in the app completes it (3-D Secure)
/// from the client secret; `nextActionType` says how (`use_stripe_sdk`, `redirect_to_url`).
public struct PaymentAction: Hashable, Sendable {
    public let clientSecret: String
    public let nextActionType: String
    /// Where to send the customer, for a `redirect_to_url` action.
    public let redirectURL: String?

    public init(clientSecret: String, nextActionType: String, redirectURL: String? = nil) {
        self.clientSecret = clientSecret
        self.nextActionType = nextActionType
        self.redirectURL = redirectURL
    }
}

/// Stripe's PaymentIntent statuses.
public enum PaymentStatus: String, Hashable, Sendable {
    case requiresPaymentMethod = "requires_payment_method"
    case requiresConfirmation = "requires_confirmation"
    case requiresAction = "requires_action"
    case processing
    case requiresCapture = "requires_capture"
    case succeeded
    case canceled
}

/// A refund at the provider, with its status as the provider states it.
public struct PaymentRefund: Hashable, Sendable {
    public let id: String
    public let amount: Money
    public let status: RefundStatus
    /// The idempotency key the shop asked for it with, which the provider keeps with the refund
    /// (nil for one made elsewhere, as in the provider's dashboard): among a payment's refunds,
    /// it tells a cancel's from the staff's.
    public let key: String?

    public init(id: String, amount: Money, status: RefundStatus, key: String? = nil) {
        self.id = id
        self.amount = amount
        self.status = status
        self.key = key
    }
}

/// Stripe's refund statuses. Only `succeeded` means the money went back; `failed` and
/// `canceled` mean it did not; `pending` and `requires_action` are not settled yet.
public enum RefundStatus: String, Hashable, Sendable {
    case pending
    case requiresAction = "requires_action"
    case succeeded
    case failed
    case canceled
}

/// Why a payment call failed, in the shop's terms.
public enum PaymentError: Error, Hashable, Sendable {
    /// The card was declined: a final answer for this payment method.
    case cardDeclined(code: String, declineCode: String?, message: String)
    /// The provider rejected the request as malformed; retrying will not help.
    case invalidRequest(message: String, param: String?)
    /// Still rate limited after the allowed retries.
    case rateLimited
    /// The provider failed (5xx) after the allowed retries; the outcome is unknown.
    case providerFailure(status: Int, message: String)
    /// No answer: connection refused or reset, or the deadline passed. The outcome is unknown.
    case unreachable(reason: String)

    /// True when the payment may or may not have happened: the order must stay pending and be
    /// reconciled later, never marked failed.
    public var outcomeUnknown: Bool {
        switch self {
        case .providerFailure, .unreachable, .rateLimited: return true
        case .cardDeclined, .invalidRequest: return false
        }
    }
}
