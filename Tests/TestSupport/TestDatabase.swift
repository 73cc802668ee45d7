import Foundation
import Postgres
import Testing

/// A database of its own for one test, copied from the migrated template that `./Tools/test`
/// prepares, so tests run in parallel without seeing each other's rows.
public struct TestDatabase: Sendable {
    public let name: String
    public let url: String
    public let pool: PostgresPool

    /// The server `./Tools/test` started; tests that need PostgreSQL fail with this message when
    /// run another way.
    static func serverURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["STOREFRONT_TEST_DATABASE_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_DATABASE_URL is not set: run the database tests through ./Tools/test")
        }
        return url
    }

    /// This database through the PgBouncer `./Tools/test` runs in transaction mode in front of the
    /// same server (`STOREFRONT_TEST_POOLER_URL`), with fewer server sessions than the tests open
    /// client connections, so client connections share server sessions.
    public func poolerURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["STOREFRONT_TEST_POOLER_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_POOLER_URL is not set: run the pooler tests through ./Tools/test")
        }
        return url.replacingOccurrences(of: "/postgres", with: "/\(name)")
    }

    /// Creates the tests' databases. Copying the template is the slow part of a test's setup and
    /// every test starts at once, so a test may wait its turn for long on a loaded machine.
    static let admin: PostgresPool? = {
        guard let url = try? serverURL() else { return nil }
        return PostgresPool(.init(connection: .init(conninfo: url), maxConnections: 4, acquireTimeout: .seconds(120)))
    }()

    /// 20 databases of pools of 8, and an app's pool of 10 beside most: within the 400
    /// connections of `Tools/test`'s cluster (`Tools/lib/common.sh`) with room to spare.
    static let slots = DatabaseSlots(maximum: 20)

    /// Runs `body` with a fresh database: migrated, empty, closed afterwards. A test nests none
    /// (it would hold a slot while waiting for another).
    /// - Parameter migrated: `false` gives an empty database with no schema at all.
    public static func with<T: Sendable>(
        migrated: Bool = true, poolSize: Int = 8, _ body: (TestDatabase) async throws -> T
    ) async throws -> T {
        let serverURL = try serverURL()
        guard let admin else { throw TestSetupError("no admin pool") }
        await slots.acquire()
        defer { slots.release() }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let template = migrated ? (ProcessInfo.processInfo.environment["STOREFRONT_TEST_TEMPLATE"] ?? "sf_template") : "template0"
        // CREATE DATABASE takes no parameters; both names are ours, never user input.
        try await admin.withConnection { connection in
            try await connection.executeScript("CREATE DATABASE \(name) TEMPLATE \(template)")
        }
        let url = serverURL.replacingOccurrences(of: "/postgres", with: "/\(name)")
        // A test waits for its pool's connections as long as for its database: with every test
        // running at once on 2 cores, 40 queries through a pool of 2 have queued past 10 s.
        let pool = PostgresPool(.init(connection: .init(conninfo: url), maxConnections: poolSize, acquireTimeout: .seconds(120)))
        let database = TestDatabase(name: name, url: url, pool: pool)
        do {
            let value = try await body(database)
            await drop(database, admin: admin)
            return value
        } catch {
            await drop(database, admin: admin)
            throw error
        }
    }

    /// Closes the test's pool and drops its database (a copy of the template costs some 20 MB:
    /// a run against a server kept between runs would otherwise fill its disk). Best effort:
    /// a database left behind is removed with its throwaway cluster.
    private static func drop(_ database: TestDatabase, admin: PostgresPool) async {
        await database.pool.shutdown()
        _ = try? await admin.withConnection { connection in
            try await connection.executeScript("DROP DATABASE IF EXISTS \(database.name) WITH (FORCE)")
        }
    }
}

public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The repository's root, found from this file's path.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

extension TestDatabase {
    /// Returns once `count` sessions of this database wait for a lock (a row's or a table's), so
    /// a test that holds one knows the requests it started have reached it, instead of sleeping
    /// and hoping; records an issue after 30 s without them.
    public func waitForLockWaiters(_ count: Int = 1) async throws {
        for _ in 0..<3000 {
            let waiting: Int = try await pool.query(
                "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).rows[0].decode("n")
            if waiting >= count { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("fewer than \(count) sessions of \(name) waited for a lock")
    }
}
