import AsyncHTTPClient
import Domain
import Foundation

/// `PaymentGateway` over Stripe's PaymentIntents API (and anything speaking it, such as
/// localstripe): form-encoded POSTs with `Idempotency-Key`, a deadline on every call, bounded
/// retries on what is safe to retry (see `StripeTransport`).
public struct StripePaymentGateway: PaymentGateway {
    let transport: StripeTransport

    /// - Parameters:
    ///   - baseURL: `https://api.stripe.com` or a compatible server (no trailing `/v1`).
    ///   - secretKey: `sk_...`, sent as a bearer token.
    public init(
        baseURL: String, secretKey: String, client: HTTPClient = SharedHTTPClient.client, timeout: Duration = .seconds(10),
        retry: StripeTransport.RetryPolicy = .standard
    ) {
        transport = StripeTransport(baseURL: baseURL, secretKey: secretKey, client: client, timeout: timeout, retry: retry)
    }

    /// Stripe's minimum charge amounts, in minor units (https://docs.stripe.com/currencies,
    /// "Minimum and maximum charge amounts"). Stripe applies its minimum in the account's
    /// settlement currency: a charge in another one (a yen shop settling in dollars) or in a
    /// currency not listed here (taken as 1) may still be refused, and then answers as before,
    /// a declined payment.
    static let minimumCharges: [String: Int64] = [
        "USD": 50, "AED": 200, "AUD": 50, "BGN": 100, "BRL": 50, "CAD": 50, "CHF": 50, "CZK": 1500, "DKK": 250, "EUR": 50, "GBP": 30,
        "HKD": 400, "HUF": 17500, "INR": 50, "JPY": 50, "MXN": 1000, "MYR": 200, "NOK": 300, "NZD": 50, "PLN": 200, "RON": 200,
        "SEK": 300, "SGD": 50, "THB": 1000,
    ]

    public func minimumCharge(in currency: Currency) -> Int64 {
        Self.minimumCharges[currency.code] ?? 1
    }

    /// Stripe's most, the same page: eight digits of minor units in every currency but a few
    /// this shop does not sell in (¥99,999,999, $999,999.99).
    public func maximumCharge(in currency: Currency) -> Int64 { 99_999_999 }

    public func createPayment(amount: Money, paymentMethod: String?, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent {
        var form = [
            ("amount", String(amount.amount)), ("currency", amount.currency.code.lowercased()),
            ("metadata[order_id]", orderID.lowercasedText),
        ]
        if let paymentMethod { form.append(("payment_method", paymentMethod)) }
        return try await transport.send(
            .POST, "/v1/payment_intents", form: form, idempotencyKey: idempotencyKey, as: StripePaymentIntentWire.self
        ).domain()
    }

    public func confirmPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
        try await transport.send(
            .POST, "/v1/payment_intents/\(FormEncoding.escape(id))/confirm", form: [], idempotencyKey: idempotencyKey,
            as: StripePaymentIntentWire.self
        ).domain()
    }

    public func payment(id: String) async throws -> PaymentIntent {
        try await transport.send(
            .GET, "/v1/payment_intents/\(FormEncoding.escape(id))", form: [], idempotencyKey: nil, as: StripePaymentIntentWire.self
        )
        .domain()
    }

    public func cancelPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
        try await transport.send(
            .POST, "/v1/payment_intents/\(FormEncoding.escape(id))/cancel", form: [], idempotencyKey: idempotencyKey,
            as: StripePaymentIntentWire.self
        ).domain()
    }

    public func refund(paymentID: String, amount: Money?, idempotencyKey: String) async throws -> PaymentRefund {
        var form = [("payment_intent", paymentID), (StripeRefundWire.keyField, idempotencyKey)]
        if let amount { form.append(("amount", String(amount.amount))) }
        return try await transport.send(.POST, "/v1/refunds", form: form, idempotencyKey: idempotencyKey, as: StripeRefundWire.self)
            .domain()
    }

    public func refund(id: String) async throws -> PaymentRefund {
        try await transport.send(.GET, "/v1/refunds/\(FormEncoding.escape(id))", form: [], idempotencyKey: nil, as: StripeRefundWire.self)
            .domain()
    }

    /// One page of up to 100: an order is refunded in full, so it has very few.
    public func refunds(paymentID: String) async throws -> [PaymentRefund] {
        try await transport.send(
            .GET, "/v1/refunds?payment_intent=\(FormEncoding.escape(paymentID))&limit=100", form: [], idempotencyKey: nil,
            as: StripeListWire<StripeRefundWire>.self
        ).data.map { try $0.domain() }
    }

    public var longestCall: Duration { transport.retry.longestCall(timeout: transport.timeout) }
}
