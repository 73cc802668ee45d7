// once: created by scenegen from Specs/CustomerSetting.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CustomerSettingUseCase {
    /// `PATCH /v1/me` (auth: customer): changes the settings given, trimmed and checked; a new
    /// email only with the current password.
    /// - Throws: `ValidationError`, `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func update(_ input: CustomerSettingUpdateInput) async throws -> CustomerSettingUpdateOutcome {
        let changes = try SettingsChanges(
            email: input.email, name: input.name, locale: input.locale, marketingOptIn: input.marketingOptIn,
            currentPassword: input.currentPassword
        ).validated()
        if changes.email != nil {
            switch try await currentPassword(changes.currentPassword ?? "", of: input.customerID) {
            case .correct: break
            case .wrong: return .wrongPassword
            case .noCustomer: return .customerNotFound
            }
        }
        do {
            guard let saved = try await store.update(customerID: input.customerID, changes: changes) else { return .customerNotFound }
            return .updated(saved)
        } catch AccountError.emailTaken {
            return .emailTaken
        }
    }
}
