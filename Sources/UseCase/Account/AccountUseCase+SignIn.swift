// once: created by scenegen from Specs/Account.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension AccountUseCase {
    /// `POST /v1/sessions` (auth: public): opens a session. An unknown email costs the same
    /// password check as a known one (against the decoy hash the hasher made), so the answer and
    /// its timing say nothing about which emails are registered. A password change that commits
    /// while this runs ends the session it opens.
    /// - Throws: `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func signIn(_ input: AccountSignInInput) async throws -> AccountSignInOutcome {
        let found = try await credentials(input.email)
        let hash: String
        if let found { hash = found.passwordHash } else { hash = try await decoy.value(from: hasher) }
        let matches = try await hasher.verify(input.password, against: hash)
        guard let found, matches else { return .invalidCredentials }
        let token = tokens.newToken()
        let expiresAt = system.now() + AccountRules.sessionLifetime
        guard
            try await sessions.create(
                tokenHash: tokens.hash(token), customerID: found.customer.id, credentialsVersion: found.version, expiresAt: expiresAt)
        else { return .invalidCredentials }
        return .signedIn(Session(token: token, customerID: found.customer.id, expiresAt: expiresAt))
    }

    /// The account of `email` as sent when one is stored in exactly that Unicode form (an
    /// address Migrations/0048 left decomposed, another account having, or composing to, its
    /// composed form), else the account of its composed form, as every address is kept now.
    private func credentials(_ email: String) async throws -> (customer: Customer, passwordHash: String, version: Int)? {
        let composed = AccountRules.normalizedEmail(email)
        let sent = email.trimmingCharacters(in: .whitespacesAndNewlines)
        // Code point by code point: Swift's == takes the two forms for one string.
        if !sent.unicodeScalars.elementsEqual(composed.unicodeScalars), let exact = try await customers.credentials(email: sent) {
            return exact
        }
        return try await customers.credentials(email: composed)
    }
}
