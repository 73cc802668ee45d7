/// A gateway could not reach what stands behind it (the database is down, the pool is
/// exhausted). The request was fine: clients should try again later (HTTP 503).
public struct StoreUnavailable: Error, Equatable, Sendable {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}
