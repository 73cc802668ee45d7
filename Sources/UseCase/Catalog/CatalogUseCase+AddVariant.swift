// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `POST /v1/admin/items/{id}/variants` (auth: admin): a new variant of an item, choosing a
    /// value of each of its options; a value an option does not list yet is added to it (last).
    /// Priced in the item's currency, the shop's; its stock is recorded as its first movement.
    /// - Throws: `ValidationError` naming every field that breaks a rule the spec cannot state;
    ///   `StoreUnavailable`.
    public func addVariant(_ input: CatalogAddVariantInput) async throws -> CatalogAddVariantOutcome {
        guard let item = try await store.item(id: input.id) else { return .notFound(id: input.id) }
        var errors = FieldErrors()
        ItemRules.checkSKU(input.sku, into: &errors)
        errors.requireShopCurrency(input.price.currency, shop: currency, at: "price.currency")
        if input.price.currency == currency {
            errors.require(
                currency == item.price.currency, "price.currency", "must be the item's currency (\(item.price.currency.code))")
        }
        let chosen = VariantRules.choice(
            input.options.map { ($0.name, $0.value) }, at: "options", of: item.options, newValues: true, into: &errors)
        try errors.throwIfAny()
        guard let chosen else { return .notFound(id: input.id) }  // unreachable: a nil choice recorded errors
        let variant = VariantDraft(id: system.newID(), sku: input.sku, options: chosen, price: input.price, stock: input.stock)
        do {
            let options = VariantRules.options(item.options, adding: chosen)
            guard
                let saved = try await store.addVariant(
                    variant, to: item.id, expecting: item.options, options: options, at: system.now())
            else { return .notFound(id: input.id) }
            return .added(saved)
        } catch CatalogError.duplicateSKU(let sku) {
            return .duplicateSKU(sku: sku)
        } catch CatalogError.duplicateCombination {
            return .duplicateCombination(id: item.id)
        } catch CatalogError.itemChanged {
            return .itemChanged(id: item.id)
        }
    }
}
