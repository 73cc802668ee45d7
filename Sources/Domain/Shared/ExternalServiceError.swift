/// An API behind a gateway could not be reached, is not configured, or failed (HTTP 502).
public struct ExternalServiceError: Error, Equatable, Sendable {
    public let service: String
    public let reason: String

    public init(service: String, reason: String) {
        self.service = service
        self.reason = reason
    }
}

/// A refusal an outside API's operation names (a generated gateway's typed error), which the
/// use case did not turn into an outcome of its own: the client gets a 502, not a 500.
public protocol ExternalServiceRefusal: Error {
    /// The API, as its gateway is named in the spec.
    var service: String { get }
}
