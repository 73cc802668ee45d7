import Postgres
import TestSupport
import Testing

@Suite("Transactions")
struct TransactionTests {
    struct Boom: Error {}

    @Test func commitsOnSuccessAndRollsBackOnError() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.pool.query("CREATE TABLE t (n int)")
            _ = try await db.pool.withTransaction { try await $0.query("INSERT INTO t VALUES ($1)", 1) }
            await #expect(throws: Boom.self) {
                try await db.pool.withTransaction { connection in
                    try await connection.query("INSERT INTO t VALUES ($1)", 2)
                    throw Boom()
                }
            }
            let count: Int = try await db.pool.query("SELECT count(*)::int AS n FROM t").rows[0].decode("n")
            #expect(count == 1)
        }
    }

    @Test func retriesSerializationFailures() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 8) { db in
            try await db.pool.query("CREATE TABLE counter (n int NOT NULL)")
            try await db.pool.query("INSERT INTO counter VALUES (0)")
            let attempts = Counter()
            // Read-modify-write under SERIALIZABLE: concurrent ones conflict with 40001 and must
            // be retried for every increment to land.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await db.pool.withTransaction(isolation: .serializable, maxAttempts: 50) { connection in
                            await attempts.increment()
                            let n: Int = try await connection.query("SELECT n FROM counter").rows[0].decode("n")
                            try await Task.sleep(for: .milliseconds(5))
                            try await connection.query("UPDATE counter SET n = $1", n + 1)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final: Int = try await db.pool.query("SELECT n FROM counter").rows[0].decode("n")
            #expect(final == 8)
            #expect(await attempts.value > 8, "no transaction conflicted, so nothing was retried")
        }
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let attempts = Counter()
            await #expect(throws: PostgresError.self) {
                try await db.pool.withTransaction(maxAttempts: 3) { connection in
                    await attempts.increment()
                    try await connection.query("SELECT raise_40001()")
                }
            }  // function does not exist: not retryable, one attempt
            #expect(await attempts.value == 1)
            try await db.pool.withConnection { connection in
                try await connection.executeScript(
                    """
                    CREATE FUNCTION raise_40001() RETURNS void LANGUAGE plpgsql AS
                    $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$
                    """)
            }
            let retried = Counter()
            do {
                try await db.pool.withTransaction(maxAttempts: 3) { connection in
                    await retried.increment()
                    try await connection.query("SELECT raise_40001()")
                }
                Issue.record("expected a serialization failure")
            } catch let error as PostgresError {
                guard case .serializationFailure = error else { Issue.record("got \(error)"); return }
                // Past its retries the conflict is the database's load, not the request's fault: 503.
                #expect(error.isUnavailable)
            }
            #expect(await retried.value == 3)
        }
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
