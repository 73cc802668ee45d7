import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Connection pool")
struct PoolTests {
    /// A pool of one connection, which a task has taken and holds for `held`.
    private func busyPool(
        _ db: TestDatabase, timeout: Duration, heldFor held: Duration
    ) async throws -> (PostgresPool, Task<Void, any Error>) {
        let pool = PostgresPool(.init(connection: .init(conninfo: db.url), maxConnections: 1, acquireTimeout: timeout))
        let holding = Task { try await pool.withConnection { _ in try await Task.sleep(for: held) } }
        try await Task.sleep(for: .milliseconds(100))
        return (pool, holding)
    }

    @Test func acquireTimesOutWhenAllConnectionsAreBusy() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            // Held far longer than the timeout, so a late timer on a loaded machine still tells them apart.
            let (pool, holding) = try await busyPool(db, timeout: .milliseconds(200), heldFor: .seconds(6))
            let started = ContinuousClock.now
            await #expect(throws: PostgresError.poolTimeout(waitedMilliseconds: 200)) {
                try await pool.query("SELECT 1")
            }
            #expect(ContinuousClock.now - started < .seconds(4))
            try await holding.value
            // Once released, the connection serves the next caller.
            #expect(try await pool.query("SELECT 1 AS one").rows.count == 1)
            await pool.shutdown()
        }
    }

    /// A failed open hands its slot to a waiter: with the server down, callers queued behind a
    /// failing open fail as fast as it does, not after the whole acquire timeout.
    @Test func aFailedOpenLetsTheNextWaiterTry() async throws {
        // Nothing listens on port 1: every connect is refused at once.
        let pool = PostgresPool(
            .init(
                connection: .init(conninfo: "postgresql://storefront@127.0.0.1:1/postgres"), maxConnections: 1, acquireTimeout: .seconds(20)
            ))
        let started = ContinuousClock.now
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do {
                        _ = try await pool.query("SELECT 1")
                        return false
                    } catch PostgresError.connection {
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(failures == [true, true, true, true], "each its own connection error, no pool timeout")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(pool.statistics.open == 0)
        await pool.shutdown()
    }

    @Test func everyWaiterTimesOutOnTimeAndThePoolWorksAfterwards() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            let (pool, holding) = try await busyPool(db, timeout: .milliseconds(300), heldFor: .seconds(6))
            // Waiters arriving 100 ms apart share one timer; each still gets its own deadline: none
            // fails early, and all fail while the connection is still held (the bounds are loose
            // because a timer fires late on a machine busy with the other tests: 2.7 s was seen).
            let started = ContinuousClock.now
            let waited = try await withThrowingTaskGroup(of: Duration.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(100 * index))
                        let asked = ContinuousClock.now
                        await #expect(throws: PostgresError.poolTimeout(waitedMilliseconds: 300)) { try await pool.query("SELECT 1") }
                        return ContinuousClock.now - asked
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(waited.allSatisfy { $0 >= .milliseconds(300) && $0 < .seconds(4) }, "\(waited)")
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(pool.statistics.waiting == 0)
            try await holding.value
            #expect(try await pool.query("SELECT 1 AS one").rows.count == 1)
            await pool.shutdown()
        }
    }

    @Test func waitersAreServedWhenConnectionsComeBack() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 2) { db in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for value in 0..<40 {
                    group.addTask { try await db.pool.query("SELECT $1::int AS v, pg_sleep(0.005)", value).rows[0].decode("v") }
                }
                var seen = Set<Int>()
                for try await value in group { seen.insert(value) }
                #expect(seen == Set(0..<40))
            }
            let stats = db.pool.statistics
            #expect(stats.open <= 2)
        }
    }

    @Test func preparesEachStatementOncePerConnection() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            for value in 0..<5 { try await db.pool.query("SELECT $1::int + 1 AS n", value) }
            let prepared: Int = try await db.pool.query(
                "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + 1%'"
            ).rows[0].decode("n")
            #expect(prepared == 1)
        }
    }

    @Test func shutdownRefusesNewWork() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let pool = PostgresPool(.init(connection: .init(conninfo: db.url)))
            try await pool.query("SELECT 1")
            await pool.shutdown()
            await #expect(throws: PostgresError.poolShutdown) { try await pool.query("SELECT 1") }
        }
    }
}
