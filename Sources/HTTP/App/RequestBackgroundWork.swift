import Domain
import Logging

/// `BackgroundWork` of one request: jobs on unstructured tasks (the answer does not wait for
/// them), logged through the request's logger so each line carries its request id.
struct RequestBackgroundWork: BackgroundWork {
    let logger: Logger

    func start(_ job: String, _ work: @escaping @Sendable () async throws -> Void) {
        let logger = logger
        Task {
            do {
                try await work()
            } catch {
                logger.warning("\(job) failed: \(error)")
            }
        }
    }

    func warn(_ message: String) {
        logger.warning("\(message)")
    }
}
