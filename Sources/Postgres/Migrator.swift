/// Applies migrations in order, each in its own transaction, recording each in
/// `schema_migrations` with a SHA-256 checksum of its text. The whole run holds a session-level
/// advisory lock, so instances starting together apply each file exactly once; a second run
/// finds everything recorded and changes nothing.
public struct Migrator: Sendable {
    /// The advisory lock key all Storefront instances agree on.
    static let lockKey: Int64 = 0x5354_4F52_4546_524E  // "STOREFRN"

    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Applies what is not applied yet and returns those migrations.
    /// - Throws: `MigrationError.checksumMismatch` when an applied file changed (before applying
    ///   anything), `.failed` when a file's SQL fails, `PostgresError` when the server does.
    @discardableResult
    public func migrate(_ migrations: [Migration]) async throws -> [Migration] {
        try await pool.withConnection { connection in
            // A migration may rebuild a large table, and waiting for another instance's run is
            // the point of the lock: the pool's statement and lock deadlines do not apply here.
            // RESET brings back the connection's own settings for whoever uses it next.
            try await connection.executeScript("SET statement_timeout = 0; SET lock_timeout = 0")
            do {
                try await connection.query("SELECT pg_advisory_lock($1)", Self.lockKey)
                let applied = try await apply(migrations, on: connection)
                try await connection.query("SELECT pg_advisory_unlock($1)", Self.lockKey)
                try await connection.executeScript("RESET statement_timeout; RESET lock_timeout")
                return applied
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock($1)", Self.lockKey)
                _ = try? await connection.executeScript("RESET statement_timeout; RESET lock_timeout")
                throw error
            }
        }
    }

    private func apply(_ migrations: [Migration], on connection: PostgresConnection) async throws -> [Migration] {
        try await connection.executeScript(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        var recorded: [Int: String] = [:]
        for row in try await connection.query("SELECT version, checksum FROM schema_migrations").rows {
            recorded[try row.decode("version")] = try row.decode("checksum", as: String.self)
        }
        var pending: [(Migration, String)] = []
        for migration in migrations {
            let checksum = try await checksum(of: migration, on: connection)
            if let appliedChecksum = recorded[migration.version] {
                guard appliedChecksum == checksum else {
                    throw MigrationError.checksumMismatch(file: migration.fileName, applied: appliedChecksum, now: checksum)
                }
            } else {
                pending.append((migration, checksum))
            }
        }
        for (migration, checksum) in pending {
            try await connection.executeScript("BEGIN")
            do {
                try await connection.executeScript(migration.sql)
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    migration.version, migration.name, checksum)
                try await connection.executeScript("COMMIT")
            } catch {
                try? await connection.executeScript("ROLLBACK")
                throw MigrationError.failed(file: migration.fileName, reason: "\(error)")
            }
        }
        return pending.map(\.0)
    }

    /// SHA-256 of the file's text, computed by the server so the module needs no crypto library.
    private func checksum(of migration: Migration, on connection: PostgresConnection) async throws -> String {
        let rows = try await connection.query(
            "SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS checksum", migration.sql
        ).rows
        return try rows[0].decode("checksum")
    }
}
