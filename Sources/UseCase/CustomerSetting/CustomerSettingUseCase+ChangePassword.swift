// once: created by scenegen from Specs/CustomerSetting.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CustomerSettingUseCase {
    /// `PUT /v1/me/password` (auth: customer): replaces the password and ends every other session
    /// of the customer; the session making the change stays signed in.
    /// - Throws: `ValidationError`, `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func changePassword(_ input: CustomerSettingChangePasswordInput) async throws -> CustomerSettingChangePasswordOutcome {
        let change = PasswordChange(currentPassword: input.currentPassword, newPassword: input.newPassword)
        try change.validate()
        switch try await currentPassword(change.currentPassword, of: input.customerID) {
        case .correct: break
        case .wrong: return .wrongPassword
        case .noCustomer: return .customerNotFound
        }
        let newHash = try await hasher.hash(change.newPassword)
        try await store.changePassword(customerID: input.customerID, newHash: newHash, keptSession: tokens.hash(input.sessionToken))
        return .changed
    }
}
