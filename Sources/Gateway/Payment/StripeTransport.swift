import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOHTTP1

/// One Stripe call with its deadline and retries. Retried: connection failures, timeouts, 409
/// (a concurrent request with the same key), 429 and 5xx, or whatever `Stripe-Should-Retry`
/// says; never another 4xx. Every attempt reuses the caller's idempotency key.
public struct StripeTransport: Sendable {
    /// Exponential backoff with full jitter: `initialDelay` doubling up to `maxDelay`.
    public struct RetryPolicy: Sendable {
        public var maxAttempts: Int
        public var initialDelay: Duration
        public var maxDelay: Duration

        public init(maxAttempts: Int, initialDelay: Duration, maxDelay: Duration) {
            self.maxAttempts = max(1, maxAttempts)
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
        }

        /// Stripe's advice: from 0.5 s doubling to 5 s, three attempts in all.
        public static let standard = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(500), maxDelay: .seconds(5))

        func delay(beforeAttempt attempt: Int) -> Duration {
            longestDelay(beforeAttempt: attempt) * Double.random(in: 0.5...1.0)
        }

        func longestDelay(beforeAttempt attempt: Int) -> Duration {
            var delay = initialDelay
            for _ in 2..<max(2, attempt) { delay = min(delay * 2, maxDelay) }
            return delay
        }

        /// The longest a call can take when each attempt may use all of `timeout`: every
        /// attempt's deadline and the longest backoff before each retry.
        public func longestCall(timeout: Duration) -> Duration {
            var total = timeout * maxAttempts
            for attempt in stride(from: 2, through: maxAttempts, by: 1) { total += longestDelay(beforeAttempt: attempt) }
            return total
        }
    }

    let baseURL: String
    let secretKey: String
    let client: HTTPClient
    let timeout: Duration
    let retry: RetryPolicy
    static let maxResponseBytes = 1 << 20

    func send<T: Decodable>(
        _ method: HTTPMethod, _ path: String, form: [(String, String)], idempotencyKey: String?, as type: T.Type
    ) async throws -> T {
        // The query (a list's filter) is no part of the operation's name.
        let operation = CallOutcomes.operation(method: method.rawValue, path: String(path.prefix { $0 != "?" }))
        do {
            let answer = try await sendWithRetries(method, path, form: form, idempotencyKey: idempotencyKey, as: type)
            CallOutcomes.record(service: "payment", operation: operation, outcome: "ok")
            return answer
        } catch {
            CallOutcomes.record(service: "payment", operation: operation, outcome: CallOutcomes.outcome(of: error))
            throw error
        }
    }

    private func sendWithRetries<T: Decodable>(
        _ method: HTTPMethod, _ path: String, form: [(String, String)], idempotencyKey: String?, as type: T.Type
    ) async throws -> T {
        var attempt = 1
        while true {
            let outcome = await attemptOnce(method, path, form: form, idempotencyKey: idempotencyKey)
            switch outcome {
            case .success(let body):
                do {
                    return try JSONDecoder().decode(T.self, from: body)
                } catch {
                    throw PaymentError.providerFailure(status: 200, message: "unreadable answer from the payment provider: \(error)")
                }
            case .failure(let failure):
                guard failure.retryable, attempt < retry.maxAttempts, !Task.isCancelled else { throw failure.error }
                attempt += 1
                try await Task.sleep(for: retry.delay(beforeAttempt: attempt))
            }
        }
    }

    private struct Failure: Error {
        let error: PaymentError
        let retryable: Bool
    }

    private func attemptOnce(
        _ method: HTTPMethod, _ path: String, form: [(String, String)], idempotencyKey: String?
    ) async -> Result<Data, Failure> {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(secretKey)")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if method == .POST {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        }
        do {
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let body = Data(try await response.body.collect(upTo: Self.maxResponseBytes).readableBytesView)
            let status = Int(response.status.code)
            if (200..<300).contains(status) { return .success(body) }
            let error =
                (try? JSONDecoder().decode(StripeErrorWire.self, from: body))?.domain(status: status)
                ?? (status >= 500
                    ? .providerFailure(status: status, message: "HTTP \(status)") : .invalidRequest(message: "HTTP \(status)", param: nil))
            let advice = response.headers.first(name: "Stripe-Should-Retry")
            let retryable = advice.map { $0 == "true" } ?? (status == 409 || status == 429 || status >= 500)
            return .failure(Failure(error: error, retryable: retryable))
        } catch {
            return .failure(Failure(error: .unreachable(reason: "\(error)"), retryable: true))
        }
    }
}
