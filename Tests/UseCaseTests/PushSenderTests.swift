import Domain
import Foundation
import PropertyBased
import Synchronization
import Testing
import UseCase

/// The push worker's decisions, on mock ports: what each provider answer does to a push, the
/// backoff between tries, and the last try.
@Suite("Push sender")
struct PushSenderTests {
    final class Queue: PushQueue {
        let due: [Push]
        let log = Mutex<[String]>([])
        init(_ due: [Push]) { self.due = due }
        let claimed = Mutex(0)
        func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push] {
            claimed.withLock { taken in
                defer { taken = min(due.count, taken + limit) }
                return Array(due[min(due.count, taken)..<min(due.count, taken + limit)])
            }
        }
        func markSent(_ push: Push, at: Date) async throws { log.withLock { $0.append("sent \(push.id)") } }
        func retry(_ push: Push, at: Date, reason: String) async throws {
            log.withLock { $0.append("retry \(push.id) +\(Int(at.timeIntervalSince(PushSenderTests.epoch)))") }
        }
        func giveUp(_ push: Push, at: Date, reason: String) async throws { log.withLock { $0.append("gave up \(push.id)") } }
        func removeDevice(of push: Push, at: Date) async throws { log.withLock { $0.append("removed \(push.deviceToken)") } }
        func purge(settledBefore before: Date, staleBefore: Date, now: Date) async throws -> Int { 0 }
    }

    struct Provider: PushProvider {
        let answers: [UUID: PushResult]
        func send(_ push: Push) async -> PushResult { answers[push.id] ?? .sent }
    }

    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    static func push(attempts: Int = 1) -> Push {
        Push(
            id: UUID(), deviceToken: "ab" + UUID().uuidString.filter(\.isHexDigit).lowercased(), orderID: UUID(), event: .orderPaid,
            locale: "en", attempts: attempts, claimID: UUID(), claimedAt: epoch)
    }

    static func run(_ pushes: [Push], _ answers: [UUID: PushResult]) async throws -> (PushSender.Report, Set<String>) {
        let queue = Queue(pushes)
        let sender = PushSender(
            queue: queue, provider: Provider(answers: answers), system: SystemContext(now: { epoch }, newID: { UUID() }))
        let report = try await sender.sendDue()
        return (report, Set(queue.log.withLock { $0 }))
    }

    @Test func eachAnswerDoesWhatItSays() async throws {
        let (sent, gone, busy, refused, last) = (Self.push(), Self.push(), Self.push(attempts: 3), Self.push(), Self.push(attempts: 12))
        let (report, log) = try await Self.run(
            [sent, gone, busy, refused, last],
            [gone.id: .unregistered, busy.id: .retry(reason: "429"), refused.id: .rejected(reason: "400"), last.id: .retry(reason: "503")])
        #expect(report.sent == 1 && report.unregistered == 1 && report.retried == 1 && report.gaveUp == 2)
        #expect(
            log == [
                "sent \(sent.id)", "removed \(gone.deviceToken)", "retry \(busy.id) +8", "gave up \(refused.id)", "gave up \(last.id)",
            ])
    }

    /// A record the queue cannot make is counted, and the rest of the batch still recorded.
    @Test func aFailedRecordLosesNoOtherAnswer() async throws {
        final class Failing: PushQueue {
            let inner: Queue
            let failing: UUID
            init(_ inner: Queue, failing: UUID) { (self.inner, self.failing) = (inner, failing) }
            func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push] {
                try await inner.claimDue(now: now, until: until, staleBefore: staleBefore, limit: limit)
            }
            func markSent(_ push: Push, at: Date) async throws {
                if push.id == failing { throw StoreUnavailable("the pool timed out") }
                try await inner.markSent(push, at: at)
            }
            func retry(_ push: Push, at: Date, reason: String) async throws { try await inner.retry(push, at: at, reason: reason) }
            func giveUp(_ push: Push, at: Date, reason: String) async throws { try await inner.giveUp(push, at: at, reason: reason) }
            func removeDevice(of push: Push, at: Date) async throws { try await inner.removeDevice(of: push, at: at) }
            func purge(settledBefore before: Date, staleBefore: Date, now: Date) async throws -> Int { 0 }
        }
        let pushes = (0..<20).map { _ in Self.push() }
        let queue = Queue(pushes)
        let sender = PushSender(
            queue: Failing(queue, failing: pushes[3].id), provider: Provider(answers: [:]),
            system: SystemContext(now: { Self.epoch }, newID: { UUID() }))
        let report = try await sender.sendDue()
        #expect(report.sent == 19 && report.unrecorded == 1)
        #expect(queue.log.withLock { $0.count } == 19)
    }

    /// More pushes than run at once: every one is answered, once.
    @Test func aBatchLargerThanItsConcurrencyIsSentWhole() async throws {
        let pushes = (0..<37).map { _ in Self.push() }
        let (report, log) = try await Self.run(pushes, [:])
        #expect(report.sent == 37 && log == Set(pushes.map { "sent \($0.id)" }))
    }

    @Test func theBackoffDoublesFromTwoSecondsToAnHour() async {
        await propertyCheck(count: 200, input: Gen.int(in: -3...100)) { attempt in
            let wait = PushSender.backoff(afterAttempt: attempt)
            #expect(wait >= .seconds(2) && wait <= .seconds(3600))
            #expect(PushSender.backoff(afterAttempt: attempt + 1) >= wait)
        }
        #expect(PushSender.backoff(afterAttempt: 1) == .seconds(2) && PushSender.backoff(afterAttempt: 3) == .seconds(8))
    }
}
