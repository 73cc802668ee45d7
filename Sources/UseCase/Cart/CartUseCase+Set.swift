// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `PUT /v1/cart/items/{item_id}` (auth: customer): sets how many of an item the cart holds;
    /// 0 removes the line. Only items in stock and priced in the shop's currency are added.
    /// - Throws: `StoreUnavailable`.
    public func set(_ input: CartSetInput) async throws -> CartSetOutcome {
        if input.quantity == 0 {
            try await store.remove(customerID: input.customerID, itemID: input.itemID)
            return .cart(try await view(of: input.customerID))
        }
        guard let item = try await catalog.item(id: input.itemID) else { return .itemNotFound(itemID: input.itemID) }
        guard input.quantity <= item.stock else { return .insufficientStock(available: item.stock, itemID: item.id) }
        guard item.price.currency == currency else {
            return .currencyMismatch(cart: currency.code, item: item.price.currency.code)
        }
        try await store.setQuantity(customerID: input.customerID, itemID: input.itemID, quantity: input.quantity)
        return .cart(try await view(of: input.customerID))
    }
}
