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
    /// Deletes the account: its email becomes a placeholder (the email is free to sign up again),
    /// its name and password go, and its sessions, addresses, cart and wishlist are deleted;
    /// its reviews stay (they show no name) and its orders stay, their shipping addresses
    /// reduced to the country and region. Not while an order is in progress: the shop still
    /// needs where it goes.
    /// - Throws: `StoreUnavailable`.
    func deleteAccount(customerID: UUID, at: Date) async throws -> AccountDeletion
}

/// What asking to delete an account came to.
public enum AccountDeletion: Hashable, Sendable {
    case deleted
    /// No such customer, or it was deleted already.
    case noCustomer
    /// Orders of the customer's still to be paid, shipped or delivered (`OrderProgress`
    /// `pending_payment`, `requires_action`, `paid`, `partially_shipped`, `shipped`, and
    /// `refund_pending`, which goes back to paid if its refund fails), oldest first, at most
    /// 100: nothing was deleted.
    case ordersInProgress([UUID])
}
