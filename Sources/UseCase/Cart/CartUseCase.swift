import Domain
import Foundation

/// A customer's cart: look at it, set a line's quantity, remove a line.
public struct CartUseCase: Sendable {
    let store: any CartStore
    let catalog: any ItemStore
    /// The shop's currency, the only one a cart is priced in.
    let currency: Currency

    public init(store: any CartStore, catalog: any ItemStore, currency: Currency) {
        self.store = store
        self.catalog = catalog
        self.currency = currency
    }

    /// - Throws: `StoreUnavailable`.
    public func cart(customerID: UUID) async throws -> Cart {
        let lines = try await store.lines(customerID: customerID)
        return Cart(lines: lines, currency: currency)
    }

    /// Sets how many of an item the cart holds; 0 removes the line.
    /// - Throws: `ValidationError` (quantity outside 0...99), `CartError.itemNotFound`,
    ///   `.insufficientStock` with what is available, `.currencyMismatch`, `StoreUnavailable`.
    public func setQuantity(customerID: UUID, itemID: UUID, quantity: Int) async throws -> Cart {
        guard (0...CartRules.maxQuantity).contains(quantity) else {
            throw ValidationError([FieldError("quantity", "must be between 0 and \(CartRules.maxQuantity)")])
        }
        if quantity == 0 { return try await remove(customerID: customerID, itemID: itemID) }
        guard let item = try await catalog.item(id: itemID) else { throw CartError.itemNotFound(itemID) }
        guard quantity <= item.stock else { throw CartError.insufficientStock(itemID: itemID, available: item.stock) }
        guard item.price.currency == currency else {
            throw CartError.currencyMismatch(cart: currency, item: item.price.currency)
        }
        try await store.setQuantity(customerID: customerID, itemID: itemID, quantity: quantity)
        return try await cart(customerID: customerID)
    }

    /// - Throws: `StoreUnavailable`.
    public func remove(customerID: UUID, itemID: UUID) async throws -> Cart {
        try await store.remove(customerID: customerID, itemID: itemID)
        return try await cart(customerID: customerID)
    }
}
