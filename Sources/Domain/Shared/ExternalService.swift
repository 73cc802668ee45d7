/// A call to an HTTP API behind a generated gateway port: a method, a path under the API's base
/// URL, and a JSON body.
public struct ExternalRequest: Hashable, Sendable {
    public let method: String
    public let path: String
    public let body: [UInt8]?

    public init(method: String, path: String, body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.body = body
    }
}

public struct ExternalResponse: Hashable, Sendable {
    public let status: Int
    public let body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// An API behind a gateway could not be reached, is not configured, or failed (HTTP 502).
public struct ExternalServiceError: Error, Equatable, Sendable {
    public let service: String
    public let reason: String

    public init(service: String, reason: String) {
        self.service = service
        self.reason = reason
    }
}
