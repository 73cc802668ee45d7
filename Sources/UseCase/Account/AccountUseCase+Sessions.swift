import Domain
import Foundation

/// What the session middleware and the purger ask of the Account scene (no route of its own).
extension AccountUseCase {
    /// The customer a bearer token belongs to. A session in use is renewed once less than half
    /// its lifetime is left (`AccountRules.renewedSessionEnd`), so a customer who opens the app
    /// at least monthly is never signed out.
    /// - Throws: `AccountError.unauthenticated`, `StoreUnavailable`.
    public func authenticate(token: String?) async throws -> UUID {
        guard let token, !token.isEmpty, token.count <= 128 else { throw AccountError.unauthenticated }
        let tokenHash = tokens.hash(token)
        let now = system.now()
        guard let session = try await sessions.session(tokenHash: tokenHash, now: now) else { throw AccountError.unauthenticated }
        if let end = AccountRules.renewedSessionEnd(session.expiresAt, now: now) {
            try await sessions.renew(tokenHash: tokenHash, until: end)
        }
        return session.customerID
    }

    /// Deletes the sessions that have expired.
    /// - Returns: how many were deleted.
    /// - Throws: `StoreUnavailable`.
    public func purgeExpiredSessions() async throws -> Int {
        try await sessions.deleteExpired(now: system.now())
    }
}
