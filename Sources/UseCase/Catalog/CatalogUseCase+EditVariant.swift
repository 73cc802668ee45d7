// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `PATCH /v1/admin/variants/{id}` (auth: admin): a variant's SKU or price (its item's
    /// currency, the shop's: a price names no other); the item's lowest price follows. Its stock changes by a
    /// delta only (`adjustStock`).
    /// - Throws: `ValidationError` for a body that changes nothing, a SKU of other characters or
    ///   another currency; `StoreUnavailable`.
    public func editVariant(_ input: CatalogEditVariantInput) async throws -> CatalogEditVariantOutcome {
        var errors = FieldErrors()
        errors.require(input.sku != nil || input.price != nil, "body", "must change at least one of sku, price")
        if let sku = input.sku { ItemRules.checkSKU(sku, into: &errors) }
        errors.requireShopCurrency(input.price?.currency, shop: currency, at: "price.currency")
        try errors.throwIfAny()
        guard let item = try await store.item(variantID: input.id) else { return .notFound(id: input.id) }
        if let currency = input.price?.currency, currency != item.price.currency {
            throw ValidationError([FieldError("price.currency", "must be the item's currency (\(item.price.currency.code))")])
        }
        do {
            guard let saved = try await store.updateVariant(id: input.id, sku: input.sku, priceAmount: input.price?.amount) else {
                return .notFound(id: input.id)
            }
            return .item(saved)
        } catch CatalogError.duplicateSKU(let sku) {
            return .duplicateSKU(sku: sku)
        }
    }
}
