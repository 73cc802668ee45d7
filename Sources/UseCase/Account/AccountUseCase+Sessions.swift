import Domain
import Foundation

/// What the session middleware and the purger ask of the Account scene (no route of its own).
extension AccountUseCase {
    /// The customer a bearer token belongs to.
    /// - Throws: `AccountError.unauthenticated`, `StoreUnavailable`.
    public func authenticate(token: String?) async throws -> UUID {
        guard let token, !token.isEmpty, token.count <= 128 else { throw AccountError.unauthenticated }
        guard let customerID = try await sessions.customerID(tokenHash: tokens.hash(token), now: system.now()) else {
            throw AccountError.unauthenticated
        }
        return customerID
    }

    /// Deletes the sessions that have expired.
    /// - Returns: how many were deleted.
    /// - Throws: `StoreUnavailable`.
    public func purgeExpiredSessions() async throws -> Int {
        try await sessions.deleteExpired(now: system.now())
    }
}
