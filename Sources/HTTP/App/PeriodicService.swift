import Logging
import ServiceLifecycle

/// Runs `pass` every `interval` while the server is up and stops at graceful shutdown: the payment
/// reconciler, the purge of expired sessions and rate-limit counts. Several instances may run the
/// same passes at once; each pass is written to be safe so. A failed pass is logged and the next
/// one comes as usual.
struct PeriodicService: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    /// One pass; what it returns, when not empty, is logged as the pass's figures.
    let pass: @Sendable () async throws -> Logger.Metadata

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do {
                    let figures = try await pass()
                    if !figures.isEmpty { logger.info("\(name)", metadata: figures) }
                } catch {
                    logger.warning("\(name) failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
