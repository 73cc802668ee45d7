/// A write for a customer whose account was deleted while the request ran: its session was
/// valid when the request began, and is not any more.
public struct CustomerDeleted: Error, Equatable, Sendable {
    public init() {}
}
