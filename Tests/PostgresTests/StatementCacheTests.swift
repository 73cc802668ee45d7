import Foundation
import TestSupport
import Testing

@testable import Postgres

/// A connection's prepared statements on a real server: a migration that changes a statement's
/// result under a running instance, and the bound on how many a session keeps.
@Suite("Prepared statements over time")
struct StatementCacheTests {
    /// PostgreSQL refuses to run a prepared statement whose result type changed (0A000 "cached
    /// plan must not change result type"): every execution on that connection failed until it
    /// was re-opened.
    @Test func aStatementWhoseColumnsChangedIsPreparedAnew() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            try await db.pool.query("CREATE TABLE shapes (id int PRIMARY KEY, size int NOT NULL)")
            try await db.pool.query("INSERT INTO shapes VALUES (1, 42)")
            let read = "SELECT size FROM shapes WHERE id = $1"
            #expect(try await db.pool.query(read, 1).rows[0].decode("size", as: Int.self) == 42)

            try await db.pool.query("ALTER TABLE shapes ALTER COLUMN size TYPE text USING 'size ' || size")
            #expect(try await db.pool.query(read, 1).rows[0].decode("size", as: String.self) == "size 42")

            try await db.pool.query("ALTER TABLE shapes ALTER COLUMN size TYPE bigint USING 7")
            let inTransaction = try await db.pool.withTransaction { connection in
                try await connection.query(read, 1).rows[0].decode("size", as: Int64.self)
            }
            #expect(inTransaction == 7, "the transaction the refusal aborted ran again")
        }
    }

    /// 0A000 is the whole class "feature not supported": a new statement refused for its own
    /// mistake is that mistake, not a changed statement to retry (it read as an outage, 503).
    @Test func aNewStatementsOwnRefusalIsNoChangedStatement() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            try await db.pool.query("CREATE TABLE shapes (id int PRIMARY KEY)")
            let wrong = "SELECT DISTINCT id FROM shapes WHERE id = $1 FOR UPDATE"
            for _ in 0..<2 {
                await #expect {
                    try await db.pool.withTransaction { connection in _ = try await connection.query(wrong, 1) }
                } throws: { error in
                    guard case .server(let info) = error as? PostgresError else { return false }
                    return info.sqlState == "0A000"
                }
            }
        }
    }

    @Test func aSessionKeepsAtMostItsCapacityPrepared() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            let capacity = StatementCache.capacity
            for n in 0..<(capacity + 20) { try await db.pool.query("SELECT \(n) + $1::int AS n", 1) }
            let prepared: Int = try await db.pool.query("SELECT count(*)::int AS n FROM pg_prepared_statements").rows[0].decode("n")
            // The count's own statement gave up one more, deallocated before the next unit of work.
            #expect(prepared <= capacity + 1)
            let oldest: Int = try await db.pool.query(
                "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT 0 + %'"
            ).rows[0].decode("n")
            #expect(oldest == 0, "the least recently used went first")
            // A statement in use is kept: the first few, used again, answer as before.
            #expect(try await db.pool.query("SELECT 1 + $1::int AS n", 1).rows[0].decode("n", as: Int.self) == 2)
        }
    }
}
