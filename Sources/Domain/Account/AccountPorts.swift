import Foundation

/// Where customers live.
public protocol CustomerStore: Sendable {
    /// - Throws: `AccountError.emailTaken` (case-insensitive), `StoreUnavailable`.
    func create(_ customer: Customer, passwordHash: String) async throws
    /// The customer with this email (case-insensitive) and the stored password hash.
    /// - Throws: `StoreUnavailable`.
    func credentials(email: String) async throws -> (customer: Customer, passwordHash: String)?
}

/// Where sessions live, by the hash of their token.
public protocol SessionStore: Sendable {
    /// - Throws: `StoreUnavailable`.
    func create(tokenHash: [UInt8], customerID: UUID, expiresAt: Date) async throws
    /// The customer of an unexpired session.
    /// - Throws: `StoreUnavailable`.
    func customerID(tokenHash: [UInt8], now: Date) async throws -> UUID?
    /// - Throws: `StoreUnavailable`.
    func delete(tokenHash: [UInt8]) async throws
}

/// A slow, salted password hash.
public protocol PasswordHasher: Sendable {
    /// A self-describing hash (algorithm, cost, salt, digest).
    /// - Throws: when the hash function fails.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `hash`, in time independent of where they differ.
    func verify(_ password: String, against hash: String) async -> Bool
}

/// New session tokens and the hash they are stored under.
public protocol SessionTokens: Sendable {
    /// 256 random bits, URL-safe text.
    func newToken() -> String
    func hash(_ token: String) -> [UInt8]
}
