import Domain
import Foundation

/// Sends the pushes that are due, on whichever instance runs it. It claims 8 at a time with a
/// lease far longer than one send (a 10 s deadline), sends those, records each answer under
/// its claim, and claims the next 8: so a push is held by one worker at a time, and a worker
/// whose lease ran out records nothing over another's. A worker that dies, or is stopped, with
/// pushes in flight leaves them claimed until the lease ends; the next pass sends them again
/// (the same `apns-collapse-id`, so a phone that got one already shows it once). Retries back
/// off exponentially, from 2 s to an hour; the 12th try is the last.
public struct PushSender: Sendable {
    let queue: any PushQueue
    let provider: any PushProvider
    let system: SystemContext
    /// How long a claim keeps other workers off a push.
    let lease: Duration
    /// Pushes in flight at once, and claimed at once.
    static let concurrency = 8
    static let maximumAttempts = 12
    /// A push that waited this long tells of news the customer has already seen: given up.
    public static let stale: Duration = .seconds(86_400)

    public init(queue: any PushQueue, provider: any PushProvider, system: SystemContext, lease: Duration = .seconds(60)) {
        self.queue = queue
        self.provider = provider
        self.system = system
        self.lease = lease
    }

    public struct Report: Hashable, Sendable {
        public var sent = 0
        public var retried = 0
        public var gaveUp = 0
        public var unregistered = 0
        /// Answers the queue could not record (the database failed): those pushes are sent
        /// again once their lease ends.
        public var unrecorded = 0

        public init() {}
    }

    /// One pass over up to `limit` due pushes. Stops claiming when its task is cancelled, and
    /// records only the answers APNs gave.
    /// - Throws: `StoreUnavailable` from claiming.
    public func sendDue(limit: Int = 100) async throws -> Report {
        var report = Report()
        var claimed = 0
        while claimed < limit, !Task.isCancelled {
            let now = system.now()
            let pushes = try await queue.claimDue(
                now: now, until: now + lease, staleBefore: now - Self.stale,
                limit: min(Self.concurrency, limit - claimed))
            guard !pushes.isEmpty else { break }
            claimed += pushes.count
            let answers = await withTaskGroup(of: (Push, PushResult).self) { group in
                for push in pushes { group.addTask { (push, await provider.send(push)) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for (push, result) in answers {
                // A send cut short by the stop is no answer: the push stays claimed.
                if Task.isCancelled, case .retry = result { continue }
                do {
                    try await record(result, of: push, into: &report)
                } catch {
                    report.unrecorded += 1
                }
            }
        }
        return report
    }

    private func record(_ result: PushResult, of push: Push, into report: inout Report) async throws {
        let now = system.now()
        switch result {
        case .sent:
            try await queue.markSent(push, at: now)
            report.sent += 1
        case .unregistered:
            try await queue.removeDevice(of: push, at: now)
            report.unregistered += 1
        case .rejected(let reason):
            try await queue.giveUp(push, at: now, reason: reason)
            report.gaveUp += 1
        case .retry(let reason) where push.attempts >= Self.maximumAttempts:
            try await queue.giveUp(push, at: now, reason: "after \(push.attempts) tries: \(reason)")
            report.gaveUp += 1
        case .retry(let reason):
            try await queue.retry(push, at: now + Self.backoff(afterAttempt: push.attempts), reason: reason)
            report.retried += 1
        }
    }

    /// 2 s after the first try, doubling, at most an hour.
    public static func backoff(afterAttempt attempt: Int) -> Duration {
        .seconds(min(3600, 1 << min(max(attempt, 1), 12)))
    }
}
