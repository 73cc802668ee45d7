import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Migrations")
struct MigratorTests {
    let first = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a (id int PRIMARY KEY);")
    let second = Migration(version: 2, name: "add_b", sql: "ALTER TABLE a ADD COLUMN b text;")

    @Test func appliesInOrderOnceAndRecordsChecksums() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let migrator = Migrator(pool: db.pool)
            #expect(try await migrator.migrate([first, second]).map(\.version) == [1, 2])
            #expect(try await migrator.migrate([first, second]).isEmpty)
            let rows = try await db.pool.query("SELECT version, checksum FROM schema_migrations ORDER BY version").rows
            #expect(try rows.map { try $0.decode("version", as: Int.self) } == [1, 2])
            #expect(try rows[0].decode("checksum", as: String.self).count == 64)
            try await db.pool.query("INSERT INTO a (id, b) VALUES (1, 'x')")
        }
    }

    @Test func refusesAChangedAppliedFile() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let migrator = Migrator(pool: db.pool)
            try await migrator.migrate([first])
            let edited = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a (id bigint PRIMARY KEY);")
            do {
                try await migrator.migrate([edited, second])
                Issue.record("an edited migration was accepted")
            } catch let error as MigrationError {
                guard case .checksumMismatch(let file, _, _) = error else { Issue.record("got \(error)"); return }
                #expect(file == "0001_create_a.sql")
            }
            // Nothing after the mismatch ran.
            let applied: Int = try await db.pool.query("SELECT count(*)::int AS n FROM schema_migrations").rows[0].decode("n")
            #expect(applied == 1)
        }
    }

    @Test func failedMigrationLeavesNothingBehind() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE c (id int); SELECT no_such_function();")
            await #expect(throws: MigrationError.self) { try await Migrator(pool: db.pool).migrate([first, broken]) }
            let tables: Int = try await db.pool.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'c'").rows[0].decode("n")
            #expect(tables == 0)
            let applied: Int = try await db.pool.query("SELECT count(*)::int AS n FROM schema_migrations").rows[0].decode("n")
            #expect(applied == 1)
        }
    }

    @Test func concurrentRunnersApplyEachFileOnce() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let slow = Migration(version: 3, name: "slow", sql: "SELECT pg_sleep(0.2); CREATE TABLE slow (id int);")
            let results = try await withThrowingTaskGroup(of: [Migration].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let pool = PostgresPool(.init(connection: .init(conninfo: db.url), maxConnections: 1))
                        defer { Task { await pool.shutdown() } }
                        return try await Migrator(pool: pool).migrate([first, second, slow])
                    }
                }
                var all: [[Migration]] = []
                for try await applied in group { all.append(applied) }
                return all
            }
            // Each file is applied by whichever runner takes the lock first for it, once in all,
            // and in order: a runner reaches a file only after the one before it is in place.
            #expect(results.flatMap { $0.map(\.version) }.sorted() == [1, 2, 3])
            for applied in results { #expect(applied.map(\.version) == applied.map(\.version).sorted()) }
            let rows = try await db.pool.query("SELECT version FROM schema_migrations ORDER BY applied_at, version").rows
            #expect(try rows.map { try $0.decode("version", as: Int.self) } == [1, 2, 3])
        }
    }

    /// Two deployments racing with different text for one file: whichever applies it first wins,
    /// and the other stops with a mismatch, whether it looked before or after.
    @Test func aRunnerWithOtherTextForAFileAnotherAppliedMeanwhileStops() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let slow = Migration(version: 1, name: "slow", sql: "SELECT pg_sleep(0.3); CREATE TABLE IF NOT EXISTS slow (id int);")
            let texts = ["CREATE TABLE b1 (id int);", "CREATE TABLE b2 (id int);"]
            let outcomes = await withTaskGroup(of: String.self) { group in
                for text in texts {
                    group.addTask {
                        let pool = PostgresPool(.init(connection: .init(conninfo: db.url), maxConnections: 1))
                        defer { Task { await pool.shutdown() } }
                        do {
                            _ = try await Migrator(pool: pool).migrate([slow, Migration(version: 2, name: "b", sql: text)])
                            return "applied"
                        } catch MigrationError.checksumMismatch(let file, _, _) {
                            return "mismatch \(file)"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.sorted() == ["applied", "mismatch 0002_b.sql"])
            let tables: Int = try await db.pool.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('b1', 'b2')").rows[0]
                .decode("n")
            #expect(tables == 1)
        }
    }

    @Test func loadsTheRepositoryMigrations() throws {
        let migrations = try Migration.load(from: repositoryRoot.appendingPathComponent("Migrations"))
        #expect(!migrations.isEmpty)
        #expect(migrations.map(\.version) == migrations.map(\.version).sorted())
        #expect(migrations[0].fileName == "0001_catalog.sql")
    }

    @Test func rejectsBadFileNames() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("mig-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "SELECT 1;".write(to: directory.appendingPathComponent("1_x.sql"), atomically: true, encoding: .utf8)
        #expect(throws: MigrationError.badFileName("1_x.sql")) { try Migration.load(from: directory) }
    }
}
