import Domain
import Foundation
import Postgres

/// `SessionStore` on PostgreSQL: table `sessions`, keyed by the token's SHA-256. A session holds
/// the credentials version it was opened under and counts only while the customer's is the same.
public struct PostgresSessionStore: SessionStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func create(tokenHash: [UInt8], customerID: UUID, credentialsVersion: Int, expiresAt: Date) async throws -> Bool {
        try await translatingUnavailable {
            try await database.query(
                """
                INSERT INTO sessions (token_hash, customer_id, credentials_version, expires_at)
                SELECT $1, id, credentials_version, $4 FROM customers WHERE id = $2 AND credentials_version = $3
                """,
                tokenHash, customerID, credentialsVersion, expiresAt
            ).affectedRows == 1
        }
    }

    public func session(tokenHash: [UInt8], now: Date) async throws -> (customerID: UUID, expiresAt: Date)? {
        try await translatingUnavailable {
            guard
                let row = try await database.query(
                    """
                    SELECT s.customer_id, s.expires_at FROM sessions s JOIN customers c ON c.id = s.customer_id
                    WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.credentials_version = c.credentials_version
                    """,
                    tokenHash, now
                ).rows.first
            else { return nil }
            return (try row.decode("customer_id"), try row.decode("expires_at"))
        }
    }

    public func renew(tokenHash: [UInt8], until: Date) async throws {
        try await translatingUnavailable {
            try await database.query("UPDATE sessions SET expires_at = $2 WHERE token_hash = $1 AND expires_at < $2", tokenHash, until)
        }
    }

    public func delete(tokenHash: [UInt8]) async throws {
        try await translatingUnavailable {
            try await database.query("DELETE FROM sessions WHERE token_hash = $1", tokenHash)
        }
    }

    public func deleteExpired(now: Date) async throws -> Int {
        try await translatingUnavailable {
            try await database.query("DELETE FROM sessions WHERE expires_at <= $1", now).affectedRows
        }
    }
}
