import Logging
import ServiceLifecycle
import UseCase

/// Deletes expired sessions and rate-limit counts that no longer limit anything, every `interval`
/// while the server is up; stops at graceful shutdown. Several instances may run it at once: each
/// pass is a plain `DELETE` of what is past its time.
struct PurgeService: Service {
    let accounts: AccountUseCase
    let throttle: RequestThrottle
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do {
                    let sessions = try await accounts.purgeExpiredSessions()
                    let limits = try await throttle.purge()
                    if sessions + limits > 0 {
                        logger.debug("purged expired records", metadata: ["sessions": "\(sessions)", "rate_limits": "\(limits)"])
                    }
                } catch {
                    logger.warning("purge pass failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
