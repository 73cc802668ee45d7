/// A request refused before any work was done for it: its caller used up a rate limit, or the
/// work it needs (a password hash) is at capacity. It may be sent again after `retryAfter`
/// seconds (HTTP 429 with `Retry-After`).
public struct TooManyRequests: Error, Equatable, Sendable {
    /// Whole seconds until a retry can succeed, at least 1.
    public let retryAfter: Int
    /// What ran out, for the answer: "sign-in attempts for this account".
    public let limited: String

    public init(retryAfter: Int, limited: String) {
        self.retryAfter = max(1, retryAfter)
        self.limited = limited
    }
}
