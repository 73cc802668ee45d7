import Foundation

/// Where carts live: a line per variant. Lines come back joined with their variants' and items'
/// current names, values and prices.
public protocol CartStore: Sendable {
    /// The customer's lines in the order they were added, oldest first (a quantity changed later
    /// keeps its line's place).
    /// - Throws: `StoreUnavailable`.
    func lines(customerID: UUID) async throws -> [CartLine]
    /// Sets the quantity of one variant's line, adding it when missing.
    /// - Throws: `CartFull` when the line is missing and the cart holds `Cart.maxLines`;
    ///   `VariantOffSale` when the variant is removed or its item archived (also by a removal or
    ///   an archive racing this call); `CustomerDeleted` when the account is;
    ///   `StoreUnavailable`.
    func setQuantity(customerID: UUID, variantID: UUID, quantity: Int) async throws
    /// Removes the line of one variant; nothing happens when there is none.
    /// - Throws: `StoreUnavailable`.
    func remove(customerID: UUID, variantID: UUID) async throws
    /// Removes the lines of every variant of an item; nothing happens when there is none.
    /// - Throws: `StoreUnavailable`.
    func remove(customerID: UUID, itemID: UUID) async throws
}
