import Foundation

/// The payment provider. Every mutating call carries an idempotency key that the caller makes
/// once, before the first attempt, and reuses on every retry, so a retry can never charge twice.
public protocol PaymentGateway: Sendable {
    /// Creates an unconfirmed payment for `amount` with `paymentMethod`, tagged with the order;
    /// without one, a payment the customer's app confirms itself (the payment sheet).
    /// - Throws: `PaymentError`.
    func createPayment(amount: Money, paymentMethod: String?, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent
    /// Confirms (charges) a created payment.
    /// - Throws: `PaymentError.cardDeclined` among others.
    func confirmPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent
    /// The payment's current state, for reconciliation.
    /// - Throws: `PaymentError`.
    func payment(id: String) async throws -> PaymentIntent
    /// Cancels a payment that has not succeeded.
    /// - Throws: `PaymentError`.
    func cancelPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent
    /// Refunds a succeeded payment in full, or `amount` of it.
    /// - Returns: the refund as the provider states it, which may be `pending` or even `failed`.
    /// - Throws: `PaymentError`.
    func refund(paymentID: String, amount: Money?, idempotencyKey: String) async throws -> PaymentRefund
    /// A refund's current state, for reconciliation.
    /// - Throws: `PaymentError`.
    func refund(id: String) async throws -> PaymentRefund
    /// Every refund of a payment, newest first: how a refund whose answer was lost is found.
    /// - Throws: `PaymentError`.
    func refunds(paymentID: String) async throws -> [PaymentRefund]
    /// The least amount, in `currency`'s minor units, the provider charges: a checkout whose
    /// total is below it is refused before anything is reserved, since the provider would refuse
    /// its payment.
    func minimumCharge(in currency: Currency) -> Int64
    /// The most, in `currency`'s minor units, the provider charges at once: a checkout whose total
    /// is above it is refused before anything is reserved (the provider would refuse its payment,
    /// as an invalid request, after the stock was held).
    func maximumCharge(in currency: Currency) -> Int64
    /// The longest one call can take: every attempt's deadline and the backoff between them.
    /// Until it has passed, a call made earlier may still be under way.
    var longestCall: Duration { get }
}

/// Checks that a webhook came from the provider and reads it. Implemented by
/// `StripeWebhookVerifier` (HMAC-SHA256 over `t.payload`, Stripe's scheme).
public protocol PaymentEventVerifier: Sendable {
    /// - Parameters:
    ///   - payload: the request body exactly as received.
    ///   - signature: the `Stripe-Signature` header.
    /// - Throws: `PaymentEventError`.
    func event(payload: [UInt8], signature: String?, now: Date) throws(PaymentEventError) -> PaymentEvent
}

/// Where the provider's events are recorded, each once.
public protocol PaymentEventStore: Sendable {
    /// Records the event unless its id was recorded before.
    /// - Returns: false for a redelivered event.
    /// - Throws: `StoreUnavailable`.
    func recordOnce(_ event: PaymentEvent, at: Date) async throws -> Bool
    /// Notes that the event was acted on.
    /// - Throws: `StoreUnavailable`.
    func markHandled(eventID: String, at: Date) async throws
    /// Events not marked handled that were received after `after` and before `before`, newest
    /// first, at most `limit`.
    /// - Throws: `StoreUnavailable`.
    func unhandled(receivedAfter after: Date, before: Date, limit: Int) async throws -> [PaymentEvent]
    /// Forgets events received before `before`, so the table does not grow for good.
    /// - Returns: how many were forgotten.
    /// - Throws: `StoreUnavailable`.
    func purge(receivedBefore before: Date) async throws -> Int
}
