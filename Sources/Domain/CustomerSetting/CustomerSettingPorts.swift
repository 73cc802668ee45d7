import Foundation

/// Where a customer's settings live. Implemented by `PostgresCustomerSettingStore`. Every method
/// throws `StoreUnavailable` when the store cannot be reached.
public protocol CustomerSettingStore: Sendable {
    func settings(customerID: UUID) async throws -> CustomerSettings?

    /// Changes only the settings `changes` sets; `nil` when no such customer.
    /// - Throws: `AccountError.emailTaken` (case-insensitive).
    func update(customerID: UUID, changes: SettingsChanges) async throws -> CustomerSettings?

    func passwordHash(customerID: UUID) async throws -> String?

    /// Stores the new hash and ends every session of the customer but `keptSession`, in one
    /// transaction.
    func changePassword(customerID: UUID, newHash: String, keptSession: [UInt8]) async throws
}
