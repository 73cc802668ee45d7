/// An API behind a gateway could not be reached, is not configured, or failed (HTTP 502).
public struct ExternalServiceError: Error, Equatable, Sendable {
    public let service: String
    public let reason: String

    public init(service: String, reason: String) {
        self.service = service
        self.reason = reason
    }
}
