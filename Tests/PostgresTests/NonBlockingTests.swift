import Postgres
import TestSupport
import Testing

/// The connection's non-blocking path: answers that span many socket reads, statements too large
/// to send in one write, many tasks taking turns on few connections, and a link that dies while a
/// task waits for its answer.
///
/// The time limit catches a hang. It counts the wait for the test's database too, which every test
/// of the run shares (a copy at a time through a few connections): one minute was too short once
/// the whole run neared it.
@Suite("Non-blocking statements", .timeLimit(.minutes(3)))
struct NonBlockingTests {
    @Test func largeStatementsAndAnswersCrossTheSocketInPieces() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            // 8 MiB each way: far more than a socket buffer, so sending waits for the socket to
            // drain and reading waits for it to fill, many times over.
            let size = 8 << 20
            let big = String(repeating: "ab", count: size / 2)
            let sent = try await db.pool.query(
                "SELECT length($1::text) AS n, $1::text = repeat('ab', $2::int) AS intact", big, size / 2
            ).rows[0]
            #expect(try sent.decode("n") as Int == size)
            #expect(try sent.decode("intact") as Bool)
            let answered: String = try await db.pool.query("SELECT repeat('xy', $1::int) AS text", size / 2).rows[0].decode("text")
            #expect(answered.utf8.count == size)
            #expect(answered.hasPrefix("xyxy") && answered.hasSuffix("xyxy"))
        }
    }

    @Test func manyTasksOnFewConnectionsEachGetTheirOwnAnswer() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 3) { db in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for task in 0..<48 {
                    group.addTask {
                        for round in 0..<25 {
                            let value = task * 1000 + round
                            let echoed: Int = try await db.pool.query("SELECT $1::int AS v", value).rows[0].decode("v")
                            guard echoed == value else { return false }
                        }
                        return true
                    }
                }
                for try await allMatched in group { #expect(allMatched) }
            }
            #expect(db.pool.statistics.open <= 3)
        }
    }

    @Test func aFailedStatementOfAScriptIsReportedAndTheConnectionStaysUsable() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            try await db.pool.withConnection { connection in
                await #expect(throws: PostgresError.self) {
                    try await connection.executeScript("SELECT 1; SELECT * FROM no_such_table; SELECT 2")
                }
                await #expect(throws: PostgresError.self) { try await connection.query("SELECT $1::int / 0 AS v", 1) }
                let value: Int = try await connection.query("SELECT $1::int + 1 AS v", 1).rows[0].decode("v")
                #expect(value == 2)
            }
        }
    }

    @Test func aLinkCutWhileWaitingFailsTheStatementAndIsReopenedNextTime() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 1) { db in
            let admin = PostgresPool(.init(connection: .init(conninfo: db.url), maxConnections: 1))
            defer { Task { await admin.shutdown() } }
            let victim: Int = try await db.pool.query("SELECT pg_backend_pid() AS pid").rows[0].decode("pid")
            let waiting = Task { try await db.pool.query("SELECT pg_sleep(30)") }
            // Cut the link once the statement is running, so the task is parked on the socket.
            for _ in 0..<100 {
                let running: Int = try await admin.query(
                    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'SELECT pg_sleep%'", victim
                ).rows[0].decode("n")
                if running == 1 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await admin.query("SELECT pg_terminate_backend($1)", victim)
            await #expect(throws: PostgresError.self) { try await waiting.value }
            let pid: Int = try await db.pool.query("SELECT pg_backend_pid() AS pid").rows[0].decode("pid")
            #expect(pid != victim)
        }
    }
}
