import Foundation
import Postgres
import Synchronization
import TestSupport
import Testing

/// The time limit catches a hang. It counts the wait for the test's database too, which every test
/// of the run shares (a copy at a time through a few connections): one minute was too short once
/// the whole run neared it.
@Suite("PostgresListener on real PostgreSQL", .timeLimit(.minutes(3)))
struct ListenerTests {
    /// The listener's session in `pg_stat_activity`: tests run at once, each in a database of its own.
    static let ours = "application_name = 'listener test' AND datname = current_database()"

    /// What the listener told, in order.
    final class Events: Sendable {
        private let events = Mutex<[PostgresListener.Event]>([])
        var all: [PostgresListener.Event] { events.withLock { $0 } }
        func append(_ event: PostgresListener.Event) { events.withLock { $0.append(event) } }

        /// Waits up to 10 s for `condition` to hold.
        func wait(until condition: ([PostgresListener.Event]) -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while !condition(all) {
                guard ContinuousClock.now < deadline else { throw TestSetupError("timed out; events: \(all)") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    func listening(_ db: TestDatabase, _ body: (Events, Task<Void, Never>) async throws -> Void) async throws {
        let listener = PostgresListener(
            settings: .init(conninfo: db.url, applicationName: "listener test"), channel: "test_channel", retryDelay: .milliseconds(50))
        let events = Events()
        let task = Task { await listener.run { events.append($0) } }
        do {
            try await events.wait { $0.contains(.listening) }
            try await body(events, task)
        } catch {
            task.cancel()
            throw error
        }
        task.cancel()
        await task.value
    }

    @Test func hearsEveryCommittedNotificationInOrderAndNoneRolledBack() async throws {
        try await TestDatabase.with { db in
            try await listening(db) { events, _ in
                for n in 0..<20 { try await db.pool.query("SELECT pg_notify('test_channel', $1)", "n\(n)") }
                _ = try await db.pool.withTransaction { connection in
                    try await connection.query("SELECT pg_notify('test_channel', 'in a transaction')")
                }
                try? await db.pool.withTransaction { connection in
                    try await connection.query("SELECT pg_notify('test_channel', 'rolled back')")
                    throw TestSetupError("roll back")
                }
                try await db.pool.query("SELECT pg_notify('other_channel', 'not ours')")
                try await db.pool.query("SELECT pg_notify('test_channel', 'last')")
                try await events.wait { $0.last == .notification("last") }
                let heard = events.all.compactMap { if case .notification(let payload) = $0 { payload } else { nil } }
                #expect(heard == (0..<20).map { "n\($0)" } + ["in a transaction", "last"])
            }
        }
    }

    @Test func saysWhenItLosesItsLinkAndListensAgain() async throws {
        try await TestDatabase.with { db in
            try await listening(db) { events, _ in
                try await db.pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE \(Self.ours)")
                try await events.wait { $0.filter { $0 == .listening }.count == 2 }
                let lost = try #require(events.all.firstIndex { if case .lost(let reason) = $0 { reason != nil } else { false } })
                #expect(lost > events.all.firstIndex(of: .listening)!)
                // Listening again for real: a notification sent now is heard.
                try await db.pool.query("SELECT pg_notify('test_channel', 'after')")
                try await events.wait { $0.last == .notification("after") }
            }
        }
    }

    @Test func stopsWhenCancelledAndClosesItsLink() async throws {
        try await TestDatabase.with { db in
            var heard: Events?
            try await listening(db) { events, _ in heard = events }
            // `listening` cancelled the task and awaited it: it returned while waiting for news,
            // saying so last.
            #expect(heard?.all.last == .lost(nil))
            let deadline = ContinuousClock.now + .seconds(10)
            while try await db.pool.query("SELECT 1 FROM pg_stat_activity WHERE \(Self.ours)").rows.count > 0 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the listener's session is still open 10 s after it stopped")
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test func aTaskCancelledBeforeItListensStops() async {
        let listener = PostgresListener(settings: .init(conninfo: "postgresql://nobody@127.0.0.1:1/none"), channel: "test_channel")
        let events = Events()
        let task = Task { await listener.run { events.append($0) } }
        task.cancel()
        await task.value
        #expect(!events.all.contains(.listening))
    }

    @Test func aFailureToConnectIsReportedWithItsReason() async throws {
        let listener = PostgresListener(
            settings: .init(conninfo: "postgresql://nobody@127.0.0.1:1/none", connectTimeoutSeconds: 1), channel: "test_channel",
            retryDelay: .milliseconds(10))
        let events = Events()
        let task = Task { await listener.run { events.append($0) } }
        try await events.wait { $0.count >= 2 }
        task.cancel()
        await task.value
        guard case .lost(let reason) = events.all.first else {
            Issue.record("first event: \(events.all)")
            return
        }
        #expect(reason?.isEmpty == false)
        #expect(!events.all.contains(.listening))
    }

    /// The heartbeat runs every interval on the listener's own connection, however many other
    /// notifications arrive meanwhile.
    @Test func beatsEveryIntervalEvenWhileNotificationsFlow() async throws {
        try await TestDatabase.with { db in
            let listener = PostgresListener(
                settings: .init(conninfo: db.url, applicationName: "listener test"), channel: "test_channel",
                heartbeatInterval: .milliseconds(100)
            ) { ("SELECT pg_notify('test_channel', $1)", ["beat"]) }
            let events = Events()
            let task = Task { await listener.run { events.append($0) } }
            try await events.wait { $0.contains(.listening) }
            // Changes every 10 ms, never 100 ms of silence, until three beats have come after the
            // first change was heard.
            let beats = { events.all.filter { $0 == .notification("beat") }.count }
            try await db.pool.query("SELECT pg_notify('test_channel', 'change')")
            try await events.wait { $0.contains(.notification("change")) }
            let before = beats()
            let deadline = ContinuousClock.now + .seconds(20)
            while beats() < before + 3 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("\(beats() - before) heartbeats in 20 s at 100 ms while notifications flowed")
                    break
                }
                try await db.pool.query("SELECT pg_notify('test_channel', 'change')")
                try await Task.sleep(for: .milliseconds(10))
            }
            task.cancel()
            await task.value
            let heard = events.all
            let firstBeat = heard.firstIndex(of: .notification("beat")) ?? 0
            #expect(heard[firstBeat...].contains(.notification("change")), "changes kept coming between beats")
        }
    }
}
