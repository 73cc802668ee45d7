import Logging
import ServiceLifecycle
import UseCase

/// Runs the payment reconciler every `interval` while the server is up; stops at graceful
/// shutdown. Several instances may run it at once (see `ReconcileUseCase`).
struct ReconcilerService: Service {
    let reconciler: ReconcileUseCase
    let interval: Duration
    /// Orders younger than this may still be inside a checkout.
    let minimumAge: Double
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do {
                    let report = try await reconciler.reconcile(olderThan: minimumAge)
                    if report != ReconcileUseCase.Report() {
                        logger.info(
                            "reconciled pending orders",
                            metadata: [
                                "paid": "\(report.paid)", "failed": "\(report.failed)", "still_pending": "\(report.stillPending)",
                            ])
                    }
                } catch {
                    logger.warning("reconciliation pass failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
