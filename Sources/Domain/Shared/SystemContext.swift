import Foundation

/// Where use cases get the time and new ids from, so tests can fix both.
public struct SystemContext: Sendable {
    public var now: @Sendable () -> Date
    public var newID: @Sendable () -> UUID

    public init(now: @escaping @Sendable () -> Date, newID: @escaping @Sendable () -> UUID) {
        self.now = now
        self.newID = newID
    }

    public static let live = SystemContext(now: { Date() }, newID: { UUID.random() })
}
