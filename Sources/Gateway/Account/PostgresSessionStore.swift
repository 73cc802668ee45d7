import Domain
import Foundation
import Postgres

/// `SessionStore` on PostgreSQL: table `sessions`, keyed by the token's SHA-256.
public struct PostgresSessionStore: SessionStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func create(tokenHash: [UInt8], customerID: UUID, expiresAt: Date) async throws {
        try await translatingUnavailable {
            try await database.query(
                "INSERT INTO sessions (token_hash, customer_id, expires_at) VALUES ($1, $2, $3)", tokenHash, customerID, expiresAt)
        }
    }

    public func customerID(tokenHash: [UInt8], now: Date) async throws -> UUID? {
        try await translatingUnavailable {
            try await database.query(
                "SELECT customer_id FROM sessions WHERE token_hash = $1 AND expires_at > $2", tokenHash, now
            ).rows.first?.decode("customer_id")
        }
    }

    public func delete(tokenHash: [UInt8]) async throws {
        try await translatingUnavailable {
            try await database.query("DELETE FROM sessions WHERE token_hash = $1", tokenHash)
        }
    }
}
