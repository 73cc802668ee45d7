import Foundation

/// Where customers live.
public protocol CustomerStore: Sendable {
    /// - Throws: `AccountError.emailTaken` (case-insensitive), `StoreUnavailable`.
    func create(_ customer: Customer, passwordHash: String) async throws
    /// The customer with this email (case-insensitive), the stored password hash and the version
    /// of the credentials it belongs to (a password change increments it).
    /// - Throws: `StoreUnavailable`.
    func credentials(email: String) async throws -> (customer: Customer, passwordHash: String, version: Int)?
}

/// Where sessions live, by the hash of their token.
public protocol SessionStore: Sendable {
    /// Opens a session for credentials checked at `credentialsVersion`.
    /// - Returns: `false`, opening nothing, when the customer's credentials are no longer at that
    ///   version (the password changed since it was checked) or the customer is gone.
    /// - Throws: `StoreUnavailable`.
    func create(tokenHash: [UInt8], customerID: UUID, credentialsVersion: Int, expiresAt: Date) async throws -> Bool
    /// The customer of an unexpired session whose credentials have not changed since it opened,
    /// and when the session ends.
    /// - Throws: `StoreUnavailable`.
    func session(tokenHash: [UInt8], now: Date) async throws -> (customerID: UUID, expiresAt: Date)?
    /// Moves the session's end to `until`, unless it ends later already.
    /// - Throws: `StoreUnavailable`.
    func renew(tokenHash: [UInt8], until: Date) async throws
    /// - Throws: `StoreUnavailable`.
    func delete(tokenHash: [UInt8]) async throws
    /// Deletes every session expired by `now`.
    /// - Returns: how many were deleted.
    /// - Throws: `StoreUnavailable`.
    func deleteExpired(now: Date) async throws -> Int
}

/// A slow, salted password hash.
public protocol PasswordHasher: Sendable {
    /// A self-describing hash (algorithm, cost, salt, digest).
    /// - Throws: `TooManyRequests` when too many hashes are being computed to start another;
    ///   whatever the hash function throws.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `hash`, in time independent of where they differ.
    /// - Throws: `TooManyRequests` when too many hashes are being computed to start another.
    func verify(_ password: String, against hash: String) async throws -> Bool
}

/// New session tokens and the hash they are stored under.
public protocol SessionTokens: Sendable {
    /// 256 random bits, URL-safe text.
    func newToken() -> String
    func hash(_ token: String) -> [UInt8]
}

/// The hash a sign-in with an unknown email checks its password against, so the answer and its
/// timing say nothing about which emails are registered. Implemented by `DecoyHash`.
public protocol DecoyPasswordHash: Sendable {
    /// A hash `hasher` made, of a secret no one knows.
    /// - Throws: what `hasher.hash` throws.
    func value(from hasher: any PasswordHasher) async throws -> String
}
