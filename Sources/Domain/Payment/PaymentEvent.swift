import Foundation

/// An event the payment provider sent us (a Stripe webhook), verified: which event, of what kind,
/// about which PaymentIntent. The event's own account of the payment is not used: the payment is
/// read from the provider when the event is handled, so events may come in any order.
public struct PaymentEvent: Hashable, Sendable {
    public let id: String
    public let type: String
    /// The PaymentIntent the event is about, directly or through its charge or refund.
    public let paymentIntentID: String?

    public init(id: String, type: String, paymentIntentID: String?) {
        self.id = id
        self.type = type
        self.paymentIntentID = paymentIntentID
    }

    /// The kinds this service acts on; any other verified event is acknowledged and recorded.
    public enum Kind: Sendable {
        /// `payment_intent.succeeded`, `.payment_failed`, `.canceled`, `.requires_action`,
        /// `.processing`: settle the order from the payment.
        case payment
        /// `charge.refunded`, `charge.refund.updated`: settle the order's refund.
        case refund
        /// `charge.dispute.created`: the customer disputes the charge; recorded and logged for
        /// the staff.
        case dispute
        case other
    }

    public var kind: Kind {
        if type.hasPrefix("payment_intent.") { return .payment }
        if type == "charge.refunded" || type.hasPrefix("charge.refund.") { return .refund }
        if type.hasPrefix("charge.dispute.") { return .dispute }
        return .other
    }
}

/// Why a webhook was refused: nothing was recorded or changed.
public enum PaymentEventError: Error, Equatable, Sendable {
    /// No `Stripe-Signature`, a malformed one, or no signature that matches the body.
    case badSignature
    /// Signed too long ago (or too far ahead): a replay, or clocks too far apart.
    case staleSignature
    /// Signed correctly, but not an event we can read.
    case malformed
}
