import Postgres
import TestSupport
import Testing

@Suite("Reconnect after a server restart")
struct ReconnectTests {
    @Test func poolRecoversAfterRestart() async throws {
        let cluster = try PrivateCluster.start()
        defer { cluster.destroy() }
        let pool = PostgresPool(.init(connection: .init(conninfo: cluster.url, connectTimeoutSeconds: 2), maxConnections: 3))
        // Open all three connections.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { try await pool.query("SELECT pg_sleep(0.05)") } }
            try await group.waitForAll()
        }
        #expect(pool.statistics.open == 3)

        try cluster.stop()
        do {
            try await pool.query("SELECT 1")
            Issue.record("query succeeded with the server down")
        } catch let error as PostgresError {
            #expect(error.isUnavailable, "got \(error)")
        }

        try cluster.startAgain()
        // Every pooled connection was broken by the restart; each must be re-opened, not fail.
        for _ in 0..<6 {
            let one: Int = try await pool.query("SELECT 1 AS one").rows[0].decode("one")
            #expect(one == 1)
        }
        await pool.shutdown()
    }
}
