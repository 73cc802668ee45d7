import Foundation

/// Where use cases get the time and new ids from, so tests can fix both, and the executor the
/// tasks they start themselves prefer.
public struct SystemContext: Sendable {
    public var now: @Sendable () -> Date
    public var newID: @Sendable () -> UUID
    /// What a task a use case starts on its own (`Task(executorPreference:)`: a payment that goes
    /// on past its answer) runs on. An unstructured task does not inherit its starter's
    /// preference: without this it runs on Swift's global pool, a thread hop away from the
    /// service's threads (measured on checkout: Benchmarks/README.md). `nil`: the global pool.
    public var taskExecutor: (any TaskExecutor)?

    public init(now: @escaping @Sendable () -> Date, newID: @escaping @Sendable () -> UUID) {
        self.now = now
        self.newID = newID
    }

    public static let live = SystemContext(now: { Date() }, newID: { UUID.random() })
}
