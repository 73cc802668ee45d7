// once: created by scenegen from Specs/Account.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension AccountUseCase {
    /// `DELETE /v1/sessions/current` (auth: customer): ends the session making the request.
    /// - Throws: `StoreUnavailable`.
    public func signOut(_ input: AccountSignOutInput) async throws -> AccountSignOutOutcome {
        try await sessions.delete(tokenHash: tokens.hash(input.sessionToken))
        return .signedOut
    }
}
