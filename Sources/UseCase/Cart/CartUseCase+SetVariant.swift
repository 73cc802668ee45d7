// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `PUT /v1/cart/variants/{variant_id}` (auth: customer): sets how many of a variant the
    /// cart holds; 0 removes the line. Only variants in stock and priced in the shop's currency
    /// are added.
    /// - Throws: `StoreUnavailable`.
    public func setVariant(_ input: CartSetVariantInput) async throws -> CartSetVariantOutcome {
        if input.quantity == 0 {
            try await store.remove(customerID: input.customerID, variantID: input.variantID)
            return .cart(try await view(of: input.customerID))
        }
        guard let item = try await catalog.item(variantID: input.variantID), item.archivedAt == nil,
            let variant = item.variants.first(where: { $0.id == input.variantID })
        else { return .variantNotFound(variantID: input.variantID) }
        switch try await place(input.quantity, of: variant, customerID: input.customerID) {
        case .placed(let cart): return .cart(cart)
        case .short(let available): return .insufficientStock(available: available, itemID: item.id, variantID: variant.id)
        case .currencyMismatch(let priced): return .currencyMismatch(cart: currency.code, item: priced.code)
        case .full: return .cartFull(limit: Cart.maxLines)
        case .offSale: return .variantNotFound(variantID: variant.id)
        }
    }
}
