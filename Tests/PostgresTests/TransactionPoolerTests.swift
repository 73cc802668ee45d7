import Foundation
import Postgres
import TestSupport
import Testing

/// The client behind PgBouncer in transaction mode (`PostgresConnectionSettings.behindTransactionPooler`),
/// the real PgBouncer `./Tools/test` starts: 2 server sessions per database, shared by every
/// client connection a test opens.
@Suite("Behind a transaction pooler")
struct TransactionPoolerTests {
    private func pooled(_ db: TestDatabase, size: Int, unnamed: Bool = true) throws -> PostgresPool {
        PostgresPool(.init(connection: .init(conninfo: try db.poolerURL(), behindTransactionPooler: unnamed), maxConnections: size))
    }

    /// Eight tasks, each with SQL of its own, run statements with values on eight client
    /// connections that share two server sessions; every answer is the task's own.
    private func interleavedSums(on pool: PostgresPool) async -> (right: Int, wrong: Int) {
        await withTaskGroup(of: (Int, Int).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var right = 0
                    var wrong = 0
                    for step in 0..<40 {
                        let sum = try? await pool.query("SELECT $1::int + $2::int + \(task) AS sum", step, task).rows[0].decode(
                            "sum", as: Int.self)
                        if sum == step + 2 * task { right += 1 } else { wrong += 1 }
                    }
                    return (right, wrong)
                }
            }
            return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
    }

    @Test func unnamedStatementsRunOnWhicheverServerSessionComes() async throws {
        try await TestDatabase.with { db in
            let pool = try pooled(db, size: 8)
            let counts = await interleavedSums(on: pool)
            #expect(counts == (320, 0))
            await pool.shutdown()
        }
    }

    /// Why the mode exists: a statement prepared in one server session is missing, or is another
    /// task's, in the next one the pooler hands out.
    @Test func namedStatementsBreakThere() async throws {
        try await TestDatabase.with { db in
            let pool = try pooled(db, size: 8, unnamed: false)
            let counts = await interleavedSums(on: pool)
            #expect(counts.wrong > 0)
            await pool.shutdown()
        }
    }

    @Test func aTransactionKeepsOneServerSession() async throws {
        try await TestDatabase.with { db in
            let pool = try pooled(db, size: 8)
            let seen = try await withThrowingTaskGroup(of: Bool.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        try await pool.withTransaction { connection in
                            try await connection.query("SELECT set_config('storefront.actor', $1, true)", "task-\(task)")
                            try await connection.query("SELECT pg_sleep(0.01)")
                            let actor: String = try await connection.query("SELECT current_setting('storefront.actor') AS actor").rows[0]
                                .decode("actor")
                            return actor == "task-\(task)"
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(seen == Array(repeating: true, count: 8))
            await pool.shutdown()
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let files = (1...3).map {
                Migration(version: $0, name: "step\($0)", sql: "SELECT pg_sleep(0.05); CREATE TABLE step\($0) (id int);")
            }
            let applied = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let pool = try pooled(db, size: 1)
                        defer { Task { await pool.shutdown() } }
                        return try await Migrator(pool: pool).migrate(files).count
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(applied == 3)
            let recorded: Int = try await db.pool.query("SELECT count(*)::int AS n FROM schema_migrations").rows[0].decode("n")
            #expect(recorded == 3)
            // No session setting leaked into the shared server sessions: the migrator's are local.
            let pool = try pooled(db, size: 1)
            let timeout: String = try await pool.query("SELECT current_setting('lock_timeout') AS t").rows[0].decode("t")
            #expect(timeout == "0")
            await pool.shutdown()
        }
    }

    @Test func startsOnlyWithTheRoleSettingsADirectConnectionSends() async throws {
        try await TestDatabase.with { db in
            let pool = try pooled(db, size: 1)
            await #expect {
                try await pool.checkPooledSessionSettings()
            } throws: { error in
                "\(error)".contains("ALTER ROLE \"storefront\" SET statement_timeout = '5s';")
            }
            await pool.shutdown()
        }
        try await TestDatabase.with { db in
            // Before any server session to this database exists, so every one the pooler opens has them.
            let settings = [
                "TimeZone = 'UTC'", "DateStyle = 'ISO'", "statement_timeout = '5s'", "lock_timeout = '2s'",
                "client_min_messages = 'warning'",
            ]
            for setting in settings {
                try await db.pool.withConnection {
                    try await $0.executeScript("ALTER ROLE storefront IN DATABASE \(db.name) SET \(setting)")
                }
            }
            let pool = try pooled(db, size: 1)
            try await pool.checkPooledSessionSettings()
            await pool.shutdown()
        }
    }
}
