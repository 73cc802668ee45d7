import Foundation

/// What a hand-written (`kind: custom`) use case receives: the signed-in customer, if the route
/// has one, the path and query parameters by name and the raw body, which it parses itself.
public struct CustomRequest: Sendable {
    public let customerID: UUID?
    public let parameters: [String: String]
    public let query: [String: String]
    public let body: [UInt8]

    public init(customerID: UUID?, parameters: [String: String], query: [String: String], body: [UInt8]) {
        self.customerID = customerID
        self.parameters = parameters
        self.query = query
        self.body = body
    }
}

/// What a custom use case answers: a status and a body encoded as JSON (none for `nil`).
public struct CustomResponse: Sendable {
    public let status: Int
    public let body: (any Encodable & Sendable)?

    public init(status: Int, body: (any Encodable & Sendable)?) {
        self.status = status
        self.body = body
    }
}

/// Thrown by a custom use case whose logic has not been written yet (HTTP 501).
public struct NotImplemented: Error, Equatable, Sendable {
    public let operation: String

    public init(operation: String) {
        self.operation = operation
    }
}
