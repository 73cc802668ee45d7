import Domain
import Foundation

/// Sign up, sign in, sign out, and resolve a bearer token to its customer.
public struct AccountUseCase: Sendable {
    let customers: any CustomerStore
    let sessions: any SessionStore
    let hasher: any PasswordHasher
    let tokens: any SessionTokens
    let system: SystemContext
    let decoy: DecoyHash

    public init(
        customers: any CustomerStore, sessions: any SessionStore, hasher: any PasswordHasher, tokens: any SessionTokens,
        system: SystemContext
    ) {
        self.customers = customers
        self.sessions = sessions
        self.hasher = hasher
        self.tokens = tokens
        self.system = system
        self.decoy = DecoyHash()
    }

    /// - Throws: `ValidationError`, `AccountError.emailTaken`, `TooManyRequests` (hashing at
    ///   capacity), `StoreUnavailable`.
    public func signUp(_ request: SignUp) async throws -> Customer {
        let valid = try request.validated()
        let customer = Customer(id: system.newID(), email: valid.email, name: valid.name, createdAt: system.now())
        try await customers.create(customer, passwordHash: try await hasher.hash(valid.password))
        return customer
    }

    /// Opens a session. An unknown email costs the same password check as a known one (against a
    /// decoy hash the hasher made), so the answer and its timing say nothing about which emails are
    /// registered. A password change that commits while this runs ends the session it opens.
    /// - Throws: `AccountError.invalidCredentials`, `TooManyRequests` (hashing at capacity),
    ///   `StoreUnavailable`.
    public func signIn(email: String, password: String) async throws -> Session {
        let found = try await customers.credentials(email: AccountRules.normalizedEmail(email))
        let hash: String
        if let found { hash = found.passwordHash } else { hash = try await decoy.value(from: hasher) }
        let matches = try await hasher.verify(password, against: hash)
        guard let found, matches else { throw AccountError.invalidCredentials }
        let token = tokens.newToken()
        let expiresAt = system.now().addingTimeInterval(AccountRules.sessionLifetime)
        guard
            try await sessions.create(
                tokenHash: tokens.hash(token), customerID: found.customer.id, credentialsVersion: found.version, expiresAt: expiresAt)
        else { throw AccountError.invalidCredentials }
        return Session(token: token, customerID: found.customer.id, expiresAt: expiresAt)
    }

    /// Ends the session of `token`.
    /// - Throws: `StoreUnavailable`.
    public func signOut(token: String) async throws {
        try await sessions.delete(tokenHash: tokens.hash(token))
    }

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
