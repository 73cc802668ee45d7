import Domain
import Foundation

extension PaymentWebhookUseCase {
    /// How long an event whose handling failed is tried again: the provider's own retries span
    /// 3 days, a day of ours is plenty for a fault that passes, and one that does not pass stops
    /// being tried.
    public static let leftOverUntil: Duration = .seconds(24 * 3600)

    /// How long after its receipt an event still unhandled is taken for one whose handling
    /// failed: its own handling, started when it was received, makes at most two provider calls
    /// (the reconciler's `minimumAge`), and a minute at least.
    var leftOverAfter: Duration { max(.seconds(60), payments.map(ReconcileUseCase.minimumAge) ?? .zero) }

    /// Handles again up to `limit` events whose handling failed (the provider or the database
    /// could not be read): the provider delivers an event once we answered it, and we answer
    /// before handling, so nothing else would bring one back. Newest first, so events that keep
    /// failing cannot hold back newer ones.
    /// - Returns: how many were handled this time, and how many failed again (left for the
    ///   next pass).
    /// - Throws: `StoreUnavailable` from reading them.
    public func handleLeftOverEvents(limit: Int = 100) async throws -> (handled: Int, failed: Int) {
        let now = system.now()
        var handled = 0
        var failed = 0
        for event in try await events.unhandled(receivedAfter: now - Self.leftOverUntil, before: now - leftOverAfter, limit: limit) {
            do {
                try await handle(event)
                handled += 1
            } catch {
                failed += 1
            }
        }
        return (handled, failed)
    }
}
