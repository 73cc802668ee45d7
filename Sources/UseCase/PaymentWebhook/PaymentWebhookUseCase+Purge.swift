import Domain
import Foundation

extension PaymentWebhookUseCase {
    /// How long an event's id is kept: the provider redelivers an event for up to 3 days, so a
    /// month still knows any redelivery for what it is.
    public static let eventRetention: Duration = .seconds(30 * 24 * 3600)

    /// Forgets events older than `eventRetention` (the periodic purge calls it).
    /// - Returns: how many were forgotten.
    /// - Throws: `StoreUnavailable`.
    public func purgeEvents() async throws -> Int {
        try await events.purge(receivedBefore: system.now() - Self.eventRetention)
    }
}
