/// Applies migrations in order, each in its own transaction, recording each in
/// `schema_migrations` with a SHA-256 checksum of its text. Every transaction first takes a
/// transaction-level advisory lock and looks again at what is recorded, so instances starting
/// together apply each file exactly once; a second run finds everything recorded and changes
/// nothing. Nothing is kept in the session (no session lock, no `SET`), so migrations also run
/// through a pooler in transaction mode.
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
            var checksums: [Int: String] = [:]
            for migration in migrations { checksums[migration.version] = try await checksum(of: migration, on: connection) }
            let recorded = try await locked(on: connection) {
                try await connection.executeScript(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version integer PRIMARY KEY,
                        name text NOT NULL,
                        checksum text NOT NULL,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
                return try await recordedChecksums(on: connection)
            }
            for migration in migrations {
                if let applied = recorded[migration.version], applied != checksums[migration.version] {
                    throw MigrationError.checksumMismatch(
                        file: migration.fileName, applied: applied, now: checksums[migration.version] ?? "")
                }
            }
            var applied: [Migration] = []
            for migration in migrations where recorded[migration.version] == nil {
                let checksum = checksums[migration.version] ?? ""
                let didApply = try await locked(on: connection, file: migration.fileName) {
                    // Another instance may have applied it since the look above: then it must
                    // have applied this very text.
                    let rows = try await connection.query("SELECT checksum FROM schema_migrations WHERE version = $1", migration.version)
                        .rows
                    if let row = rows.first {
                        let applied: String = try row.decode("checksum")
                        guard applied == checksum else {
                            throw MigrationError.checksumMismatch(file: migration.fileName, applied: applied, now: checksum)
                        }
                        return false
                    }
                    do {
                        try await connection.executeScript(migration.sql)
                    } catch {
                        throw MigrationError.failed(file: migration.fileName, reason: "\(error)")
                    }
                    // The time it is recorded, not when its transaction began (and waited for the lock).
                    try await connection.query(
                        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, clock_timestamp())",
                        migration.version, migration.name, checksum)
                    return true
                }
                if didApply { applied.append(migration) }
            }
            return applied
        }
    }

    /// Runs `body` in a transaction that holds the migration lock. A migration may rebuild a large
    /// table, and waiting for another instance's run is the point of the lock: the pool's
    /// statement and lock deadlines do not apply inside (`SET LOCAL` ends with the transaction).
    /// - Parameter file: the migration the transaction applies, named when its COMMIT fails (a
    ///   deferred constraint, say); `nil` for the first look.
    private func locked<T: Sendable>(
        on connection: PostgresConnection, file: String? = nil, _ body: () async throws -> T
    ) async throws -> T {
        do {
            try await connection.executeScript("BEGIN; SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0")
            try await connection.query("SELECT pg_advisory_xact_lock($1)", Self.lockKey)
            let value = try await body()
            do {
                try await connection.executeScript("COMMIT")
            } catch {
                guard let file else { throw error }
                throw MigrationError.failed(file: file, reason: "\(error)")
            }
            return value
        } catch {
            try? await connection.executeScript("ROLLBACK")
            throw error
        }
    }

    private func recordedChecksums(on connection: PostgresConnection) async throws -> [Int: String] {
        var recorded: [Int: String] = [:]
        for row in try await connection.query("SELECT version, checksum FROM schema_migrations").rows {
            recorded[try row.decode("version")] = try row.decode("checksum", as: String.self)
        }
        return recorded
    }

    /// SHA-256 of the file's text, computed by the server so the module needs no crypto library.
    private func checksum(of migration: Migration, on connection: PostgresConnection) async throws -> String {
        let rows = try await connection.query(
            "SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS checksum", migration.sql
        ).rows
        return try rows[0].decode("checksum")
    }
}
