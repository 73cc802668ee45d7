import Domain
import Foundation

/// Sends the pushes that are due, on whichever instance runs it: each is claimed first, so two
/// workers never send one; a worker that dies mid-batch leaves its claims to expire, and the
/// pushes are sent by the next pass (the same `apns-collapse-id`, so a phone that got one
/// before the worker died shows it once). Retries back off exponentially, from 2 s to an hour.
public struct PushSender: Sendable {
    let queue: any PushQueue
    let provider: any PushProvider
    let system: SystemContext
    /// How long a claim keeps other workers off a push.
    let claim: Duration
    /// After this many tries a push is given up.
    static let maximumAttempts = 12
    /// A push that waited this long tells of news the customer has already seen: given up.
    static let stale: Duration = .seconds(86_400)

    public init(queue: any PushQueue, provider: any PushProvider, system: SystemContext, claim: Duration = .seconds(60)) {
        self.queue = queue
        self.provider = provider
        self.system = system
        self.claim = claim
    }

    public struct Report: Hashable, Sendable {
        public var sent = 0
        public var retried = 0
        public var gaveUp = 0
        public var unregistered = 0

        public init() {}
    }

    /// One pass over up to `limit` due pushes, sent 8 at a time.
    /// - Throws: `StoreUnavailable`.
    public func sendDue(limit: Int = 100) async throws -> Report {
        let now = system.now()
        let pushes = try await queue.claimDue(
            now: now, until: now + claim.timeInterval, staleBefore: now - Self.stale.timeInterval, limit: limit)
        var report = Report()
        var next = pushes.makeIterator()
        try await withThrowingTaskGroup(of: (Push, PushResult).self) { group in
            func start() {
                guard let push = next.next() else { return }
                group.addTask { (push, await provider.send(push)) }
            }
            for _ in 0..<8 { start() }
            while let (push, result) = try await group.next() {
                try await record(result, of: push, into: &report)
                start()
            }
        }
        return report
    }

    private func record(_ result: PushResult, of push: Push, into report: inout Report) async throws {
        let now = system.now()
        switch result {
        case .sent:
            try await queue.markSent(push.id, at: now)
            report.sent += 1
        case .unregistered:
            try await queue.removeDevice(token: push.deviceToken, at: now)
            report.unregistered += 1
        case .rejected(let reason):
            try await queue.giveUp(push.id, at: now, reason: reason)
            report.gaveUp += 1
        case .retry(let reason) where push.attempts >= Self.maximumAttempts:
            try await queue.giveUp(push.id, at: now, reason: "after \(push.attempts) tries: \(reason)")
            report.gaveUp += 1
        case .retry(let reason):
            try await queue.retry(push.id, at: now + Self.backoff(afterAttempt: push.attempts), reason: reason)
            report.retried += 1
        }
    }

    /// 2 s after the first try, doubling, at most an hour.
    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(3600, pow(2, Double(min(max(attempt, 1), 12))))
    }
}

extension Duration {
    var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
