import Foundation

/// What an order waiting on its customer (`requires_action`) shows the app: the client secret
/// for the provider's SDK, what it must do next, and until when the stock stays reserved.
public struct OrderPayment: Hashable, Sendable {
    public let clientSecret: String
    public let nextAction: PaymentNextAction
    public let expiresAt: Date?

    public init(clientSecret: String, nextAction: PaymentNextAction, expiresAt: Date?) {
        self.clientSecret = clientSecret
        self.nextAction = nextAction
        self.expiresAt = expiresAt
    }
}

/// The provider's next step for the customer (`use_stripe_sdk`, `redirect_to_url`).
public struct PaymentNextAction: Hashable, Sendable {
    public let type: String
    /// Where to send the customer, for a `redirect_to_url` action.
    public let redirectURL: String?

    public init(type: String, redirectURL: String?) {
        self.type = type
        self.redirectURL = redirectURL
    }
}

extension Order {
    /// While `requires_action`: what the app's payment SDK needs (`nil` otherwise).
    public var payment: OrderPayment? {
        action.map { action in
            OrderPayment(
                clientSecret: action.clientSecret,
                nextAction: PaymentNextAction(type: action.nextActionType, redirectURL: action.redirectURL),
                expiresAt: actionExpiresAt)
        }
    }
}
