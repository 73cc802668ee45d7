import Logging
import ServiceLifecycle
import UseCase

/// Runs the payment reconciler every `interval` while the server is up (over orders older than
/// its `minimumAge`); stops at graceful shutdown. Several instances may run it at once (see
/// `ReconcileUseCase`).
struct ReconcilerService: Service {
    let reconciler: ReconcileUseCase
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do {
                    let report = try await reconciler.reconcile()
                    if report != ReconcileUseCase.Report() {
                        logger.info(
                            "reconciled pending orders",
                            metadata: [
                                "paid": "\(report.paid)", "failed": "\(report.failed)", "refunded": "\(report.refunded)",
                                "refunds_failed": "\(report.refundsFailed)", "still_pending": "\(report.stillPending)",
                            ])
                    }
                } catch {
                    logger.warning("reconciliation pass failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
