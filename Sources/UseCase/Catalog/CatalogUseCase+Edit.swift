// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `PATCH /v1/admin/items/{id}` (auth: admin): changes only the fields the body sets, in
    /// one transaction, with the SKUs and prices of any of its variants (`variants`: all or
    /// none) and its options anew (`options`: the same names; values reordered, added, or dropped
    /// when no variant holds them). A price is that of the item's one variant (an item with several refuses it); a
    /// currency (the shop's) is the item's and every variant's. Stock changes by a delta only, through the
    /// variant (`adjustStock`).
    /// - Throws: `ValidationError` for a body that changes nothing or a blank name or
    ///   category; `StoreUnavailable`.
    public func edit(_ input: CatalogEditInput) async throws -> CatalogEditOutcome {
        var errors = FieldErrors()
        var variants: [VariantChanges] = []
        var seen = Set<UUID>()
        for (index, change) in (input.variants ?? []).enumerated() {
            errors.require(seen.insert(change.id).inserted, "variants[\(index)].id", "appears twice")
            errors.require(change.sku != nil || change.price != nil, "variants[\(index)]", "must change at least one of sku, price")
            if let sku = change.sku { ItemRules.checkSKU(sku, field: "variants[\(index)].sku", into: &errors) }
            errors.requireShopCurrency(change.price?.currency, shop: currency, at: "variants[\(index)].price.currency")
            variants.append(VariantChanges(id: change.id, sku: change.sku, priceAmount: change.price?.amount))
        }
        let options = input.options.map { VariantRules.options($0.map { ($0.name, $0.values) }, into: &errors) }
        let changes = ItemChanges(
            name: input.name, description: input.description, category: input.category, taxClass: input.taxClass,
            priceAmount: input.price?.amount, currency: input.price?.currency?.code, variants: variants, options: options)
        errors.require(
            !changes.isEmpty, "body", "must change at least one of name, description, category, tax_class, price, options, variants")
        ItemRules.checkNotBlank(input.name, field: "name", into: &errors)
        ItemRules.checkNotBlank(input.category, field: "category", into: &errors)
        errors.requireShopCurrency(input.price?.currency, shop: currency, at: "price.currency")
        try errors.throwIfAny()
        // A variant's price is in its item's currency (the one this change leaves it with), which
        // differs from the shop's only for an item priced before the shop's currency changed.
        let priced = (input.variants ?? []).enumerated().filter { $0.element.price != nil }
        if !priced.isEmpty {
            guard let item = try await store.item(id: input.id) else { return .notFound(id: input.id) }
            let currency = input.price?.currency ?? item.price.currency
            for (index, change) in priced where change.price?.currency != currency {
                errors.add("variants[\(index)].price.currency", "must be the item's currency (\(currency.code))")
            }
            try errors.throwIfAny()
        }
        do {
            guard let saved = try await store.update(id: input.id, changes: changes) else { return .notFound(id: input.id) }
            return .item(saved)
        } catch CatalogError.itemHasVariants(let count) {
            return .itemHasVariants(id: input.id, count: count)
        } catch CatalogError.optionsIncompatible(let problems) {
            throw ValidationError(problems)
        } catch CatalogError.unknownVariant(let index) {
            throw ValidationError([FieldError("variants[\(index)].id", "is not a live variant of the item")])
        } catch CatalogError.duplicateSKU(let sku) {
            let place = input.variants?.firstIndex { $0.sku == sku }.map { "variants[\($0)].sku" } ?? "variants"
            return .duplicateSKU(sku: sku, errors: [FieldError(place, "is already taken")])
        }
    }
}
