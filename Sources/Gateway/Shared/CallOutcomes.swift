import Domain
import Metrics

/// Counts the calls gateways make to outside APIs by outcome (`external_calls_total` in
/// Prometheus's terms): what `/metrics` shows of the payment provider's and the media API's health.
enum CallOutcomes {
    /// Records one call to `service` (`payment`, `media`) for `operation`.
    static func record(service: String, operation: String, outcome: String) {
        Counter(label: "external_calls", dimensions: [("service", service), ("operation", operation), ("outcome", outcome)]).increment()
    }

    /// How a payment call ended: `ok`, `declined`, `rejected` (a 4xx), or `unavailable` (no answer,
    /// 5xx, rate limited: the outcome is unknown).
    static func outcome(of error: (any Error)?) -> String {
        guard let error else { return "ok" }
        switch error {
        case PaymentError.cardDeclined: return "declined"
        case let error as PaymentError where !error.outcomeUnknown: return "rejected"
        default: return "unavailable"
        }
    }

    /// `/v1/payment_intents/pi_123/confirm` -> `POST /v1/payment_intents/{id}/confirm`: one series
    /// per operation, not per payment.
    static func operation(method: String, path: String) -> String {
        let segments = path.split(separator: "/").map { segment in
            segment.contains("_") && !segment.hasPrefix("payment_") ? "{id}" : String(segment)
        }
        return "\(method) /" + segments.joined(separator: "/")
    }
}
