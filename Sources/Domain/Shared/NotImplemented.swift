/// Thrown by a custom use case whose logic has not been written yet (HTTP 501).
public struct NotImplemented: Error, Equatable, Sendable {
    public let operation: String

    public init(operation: String) {
        self.operation = operation
    }
}
