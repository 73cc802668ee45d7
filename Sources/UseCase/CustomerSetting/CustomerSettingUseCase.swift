import Domain
import Foundation

/// The signed-in customer's own settings: read, change, and change the password.
public struct CustomerSettingUseCase: Sendable {
    let store: any CustomerSettingStore
    let hasher: any PasswordHasher
    let tokens: any SessionTokens

    public init(store: any CustomerSettingStore, hasher: any PasswordHasher, tokens: any SessionTokens) {
        self.store = store
        self.hasher = hasher
        self.tokens = tokens
    }

    /// - Throws: `SettingsError.customerNotFound`, `StoreUnavailable`.
    public func show(customerID: UUID) async throws -> CustomerSettings {
        guard let settings = try await store.settings(customerID: customerID) else { throw SettingsError.customerNotFound }
        return settings
    }

    /// Changes the settings given; a new email only with the current password.
    /// - Throws: `ValidationError`, `SettingsError.wrongPassword`, `AccountError.emailTaken`,
    ///   `SettingsError.customerNotFound`, `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func update(customerID: UUID, _ changes: SettingsChanges) async throws -> CustomerSettings {
        let valid = try changes.validated()
        if valid.email != nil { try await checkCurrentPassword(valid.currentPassword ?? "", customerID: customerID) }
        guard let saved = try await store.update(customerID: customerID, changes: valid) else {
            throw SettingsError.customerNotFound
        }
        return saved
    }

    /// Replaces the password and ends every other session of the customer; the session making
    /// the change (`currentToken`) stays signed in.
    /// - Throws: `ValidationError`, `SettingsError.wrongPassword`, `.customerNotFound`,
    ///   `TooManyRequests` (hashing at capacity), `StoreUnavailable`.
    public func changePassword(customerID: UUID, currentToken: String, _ change: PasswordChange) async throws {
        try change.validate()
        try await checkCurrentPassword(change.currentPassword, customerID: customerID)
        let newHash = try await hasher.hash(change.newPassword)
        try await store.changePassword(customerID: customerID, newHash: newHash, keptSession: tokens.hash(currentToken))
    }

    private func checkCurrentPassword(_ password: String, customerID: UUID) async throws {
        guard let hash = try await store.passwordHash(customerID: customerID) else { throw SettingsError.customerNotFound }
        guard try await hasher.verify(password, against: hash) else { throw SettingsError.wrongPassword }
    }
}
