import Foundation
import Postgres
import TestSupport
import Testing

/// The server-side deadlines every pooled connection carries (`statement_timeout`,
/// `lock_timeout`): one slow statement or one held lock must not hold a connection for long
/// while everyone else waits. Both end as errors callers answer 503, and the connection is usable
/// afterwards. Migrations are exempt.
@Suite("Statement and lock deadlines")
struct DeadlineTests {
    /// A second pool on `db` whose connections carry the deadlines.
    static func pool(_ db: TestDatabase, statement: Int? = nil, lock: Int? = nil) -> PostgresPool {
        PostgresPool(
            .init(
                connection: .init(conninfo: db.url, statementTimeoutMilliseconds: statement, lockTimeoutMilliseconds: lock),
                maxConnections: 1))
    }

    @Test func aStatementPastItsDeadlineIsCancelledAndTheConnectionServesOn() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let pool = Self.pool(db, statement: 200)
            let start = ContinuousClock.now
            do {
                try await pool.query("SELECT pg_sleep(10)")
                Issue.record("a 10 s statement ran to its end")
            } catch let error as PostgresError {
                guard case .queryCanceled = error else { Issue.record("got \(error)"); return }
                #expect(error.isUnavailable)
            }
            #expect(ContinuousClock.now - start < .seconds(8), "the deadline, not the 10 s sleep or an endless wait, ended it")
            #expect(try await pool.query("SELECT 1 AS one").rows[0].decode("one") as Int == 1)
            await pool.shutdown()
        }
    }

    @Test func aLockWaitPastItsDeadlineGivesUp() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.pool.query("CREATE TABLE held (id int PRIMARY KEY)")
            let pool = Self.pool(db, statement: 30_000, lock: 200)
            // One connection holds the table until the other has given up.
            try await db.pool.withConnection { holder in
                try await holder.executeScript("BEGIN; LOCK TABLE held IN ACCESS EXCLUSIVE MODE")
                let start = ContinuousClock.now
                do {
                    try await pool.query("SELECT count(*) FROM held")
                    Issue.record("read a table another transaction holds exclusively")
                } catch let error as PostgresError {
                    guard case .lockNotAvailable = error else { Issue.record("got \(error)"); return }
                    #expect(error.isUnavailable)
                }
                #expect(ContinuousClock.now - start < .seconds(8), "the deadline, not the 10 s sleep or an endless wait, ended it")
                try await holder.executeScript("ROLLBACK")
            }
            #expect(try await pool.query("SELECT count(*)::int AS n FROM held").rows[0].decode("n") as Int == 0)
            await pool.shutdown()
        }
    }

    @Test func migrationsAreExemptAndLeaveTheDeadlinesInPlace() async throws {
        try await TestDatabase.with(migrated: false) { db in
            // Deadlines the migrator's own bookkeeping meets on a loaded machine; the migration
            // sleeps well past them.
            let pool = Self.pool(db, statement: 1000, lock: 1000)
            let slow = Migration(version: 1, name: "slow", sql: "SELECT pg_sleep(2); CREATE TABLE slow (id int);")
            try await Migrator(pool: pool).migrate([slow])
            let row = try await pool.query("SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l").rows[0]
            #expect(try row.decode("s") as String == "1s")
            #expect(try row.decode("l") as String == "1s")
            await pool.shutdown()
        }
    }
}
