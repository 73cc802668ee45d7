import Domain
import Foundation

extension PaymentWebhookUseCase {
    /// How long an event's id is kept: the provider redelivers an event for up to 3 days, so a
    /// month still knows any redelivery for what it is.
    public static let eventRetention: Duration = .seconds(30 * 24 * 3600)

    /// How long after its receipt an event still unhandled is taken for one whose handling
    /// failed (its own handling, started when it was received, has long ended), and how long
    /// such an event is tried again: the provider's own retries span 3 days, a day of ours is
    /// plenty for a fault that passes, and one that does not pass stops being tried.
    public static let leftOverAfter: Duration = .seconds(60)
    public static let leftOverUntil: Duration = .seconds(24 * 3600)

    /// Handles again up to `limit` events whose handling failed (the provider or the database
    /// could not be read): the provider delivers an event once we answered it, and we answer
    /// before handling, so nothing else would bring one back. Newest first, so events that keep
    /// failing cannot hold back newer ones.
    /// - Returns: how many were handled this time.
    /// - Throws: `StoreUnavailable` from reading them; a handling that fails again is left for
    ///   the next pass.
    public func handleLeftOverEvents(limit: Int = 100) async throws -> Int {
        let now = system.now()
        var handled = 0
        for event in try await events.unhandled(receivedAfter: now - Self.leftOverUntil, before: now - Self.leftOverAfter, limit: limit) {
            do {
                try await handle(event)
                handled += 1
            } catch {
                continue
            }
        }
        return handled
    }

    /// Forgets events older than `eventRetention` (the periodic purge calls it).
    /// - Returns: how many were forgotten.
    /// - Throws: `StoreUnavailable`.
    public func purgeEvents() async throws -> Int {
        try await events.purge(receivedBefore: system.now() - Self.eventRetention)
    }
}
