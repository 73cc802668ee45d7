// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `PUT /v1/cart/items/{item_id}` (auth: customer): sets how many of an item with one variant
    /// the cart holds; 0 removes the item's lines. An item with several variants is carted by
    /// variant (`setVariant`).
    /// - Throws: `StoreUnavailable`.
    public func set(_ input: CartSetInput) async throws -> CartSetOutcome {
        if input.quantity == 0 {
            try await store.remove(customerID: input.customerID, itemID: input.itemID)
            return .cart(try await view(of: input.customerID))
        }
        guard let item = try await catalog.item(id: input.itemID), item.archivedAt == nil else {
            return .itemNotFound(itemID: input.itemID)
        }
        guard item.variants.count == 1, let variant = item.variants.first else {
            return .variantRequired(itemID: item.id, count: item.variants.count, variantIDs: item.variants.map(\.id))
        }
        switch try await place(input.quantity, of: variant, customerID: input.customerID) {
        case .placed(let cart): return .cart(cart)
        case .short(let available): return .insufficientStock(available: available, itemID: item.id, variantID: variant.id)
        case .currencyMismatch(let priced): return .currencyMismatch(cart: currency.code, item: priced.code)
        case .full: return .cartFull(limit: Cart.maxLines)
        case .offSale: return .itemNotFound(itemID: item.id)
        }
    }
}
