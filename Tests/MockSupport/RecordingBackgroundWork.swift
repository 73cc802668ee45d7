import Domain
import Synchronization

/// A `BackgroundWork` for use-case tests: keeps what it was given (each job's name, each
/// warning) and runs no job, so a test sees what would have run after the answer.
public final class RecordingBackgroundWork: BackgroundWork {
    private let recorded = Mutex<(jobs: [String], warnings: [String])>(([], []))

    public init() {}

    public var jobs: [String] { recorded.withLock { $0.jobs } }
    public var warnings: [String] { recorded.withLock { $0.warnings } }

    public func start(_ job: String, _ work: @escaping @Sendable () async throws -> Void) {
        recorded.withLock { $0.jobs.append(job) }
    }

    public func warn(_ message: String) {
        recorded.withLock { $0.warnings.append(message) }
    }
}
