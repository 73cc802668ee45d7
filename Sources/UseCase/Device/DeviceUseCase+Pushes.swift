import Domain
import Foundation

extension DeviceUseCase {
    /// How long a settled push (sent or given up) is kept, to answer what a phone was told.
    public static let settledPushLifetime: Duration = .seconds(30 * 86_400)

    /// What sends the queued pushes; `nil` without a push provider (APNS_* unset: pushes wait in
    /// the queue until `purgePushes` gives them up as stale).
    public var pushSender: PushSender? {
        pushProvider.map { PushSender(queue: pushQueue, provider: $0, system: system) }
    }

    /// Deletes pushes settled over 30 days ago and gives up those waiting over a day, so the
    /// queue stays bounded whether or not a provider is configured; the number deleted.
    /// - Throws: `StoreUnavailable`.
    public func purgePushes() async throws -> Int {
        let now = system.now()
        return try await pushQueue.purge(
            settledBefore: now - Self.settledPushLifetime, staleBefore: now - PushSender.stale, now: now)
    }
}
