import Foundation

/// Where carts live. Lines come back joined with their items' current names and prices.
public protocol CartStore: Sendable {
    /// The customer's lines, oldest first.
    /// - Throws: `StoreUnavailable`.
    func lines(customerID: UUID) async throws -> [CartLine]
    /// Sets the quantity of one line, adding it when missing.
    /// - Throws: `StoreUnavailable`.
    func setQuantity(customerID: UUID, itemID: UUID, quantity: Int) async throws
    /// Removes one line; nothing happens when there is none.
    /// - Throws: `StoreUnavailable`.
    func remove(customerID: UUID, itemID: UUID) async throws
}
