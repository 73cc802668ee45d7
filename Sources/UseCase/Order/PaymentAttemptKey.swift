import Domain
import Foundation

/// The idempotency key of one attempt at a payment call that may be refused now and succeed
/// later (a cancel while the payment is `processing`): the provider replays a key's first answer,
/// an error included, for a day, so each attempt takes a key of its own (`attempt`, a fresh id;
/// a key by the second was once shared by two attempts in one second; under a fixed key a
/// cancel refused once was refused for a day, and the order held its stock that long). Such
/// calls are safe to repeat: a payment is canceled once whatever the key.
enum PaymentAttemptKey {
    static func key(_ purpose: String, of order: Order, attempt: UUID) -> String {
        "order-\(order.id.lowercasedText)-\(purpose)-\(attempt.lowercasedText)"
    }
}
