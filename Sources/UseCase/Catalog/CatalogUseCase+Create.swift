// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `POST /v1/admin/items` (auth: admin): a new item. Without `variants` it has one variant
    /// of the item's SKU, `price` and `stock`; with them, `options` lists the values they choose
    /// from, and each variant has its SKU, price and stock and one value of every option, a
    /// combination no sibling has. Every SKU is the shop's only one; every price is in the shop's
    /// currency.
    /// - Throws: `ValidationError` naming every field that breaks a rule the spec cannot state;
    ///   `StoreUnavailable`.
    public func create(_ input: CatalogCreateInput) async throws -> CatalogCreateOutcome {
        var errors = FieldErrors()
        ItemRules.checkSKU(input.sku, into: &errors)
        ItemRules.checkNotBlank(input.name, field: "name", into: &errors)
        ItemRules.checkNotBlank(input.category, field: "category", into: &errors)
        let options = VariantRules.options((input.options ?? []).map { ($0.name, $0.values) }, into: &errors)
        let variants = draftVariants(input, options: options, into: &errors)
        try errors.throwIfAny()
        let draft = ItemDraft(
            sku: input.sku, name: input.name, description: input.description, category: input.category, taxClass: input.taxClass,
            options: options, variants: variants)
        do {
            return .created(try await store.create(id: system.newID(), draft: draft, createdAt: system.now()))
        } catch CatalogError.duplicateSKU(let sku) {
            let place = input.variants?.firstIndex { $0.sku == sku }.map { "variants[\($0)].sku" } ?? "sku"
            return .duplicateSKU(sku: sku, errors: [FieldError(place, "is already taken")])
        }
    }

    /// The item's variants: its own SKU, price and stock as its one variant, or those sent.
    private func draftVariants(_ input: CatalogCreateInput, options: [ItemOption], into errors: inout FieldErrors) -> [VariantDraft] {
        guard let sent = input.variants, !sent.isEmpty else {
            errors.require(input.price != nil, "price", "is required for an item without variants")
            errors.require(input.stock != nil, "stock", "is required for an item without variants")
            errors.require(options.isEmpty, "variants", "must list the variants of the options' values")
            errors.requireShopCurrency(input.price?.currency, shop: currency, at: "price.currency")
            guard let price = input.price, let stock = input.stock else { return [] }
            return [VariantDraft(id: system.newID(), sku: input.sku, price: price, stock: stock)]
        }
        errors.require(input.price == nil, "price", "is each variant's: leave it out when variants are sent")
        errors.require(input.stock == nil, "stock", "is each variant's: leave it out when variants are sent")
        var skus = Set<String>()
        var combinations = Set<[VariantOption]>()
        var drafts: [VariantDraft] = []
        for (index, variant) in sent.enumerated() {
            ItemRules.checkSKU(variant.sku, field: "variants[\(index)].sku", into: &errors)
            errors.require(skus.insert(variant.sku).inserted, "variants[\(index)].sku", "appears twice")
            errors.requireShopCurrency(variant.price.currency, shop: currency, at: "variants[\(index)].price.currency")
            let chosen = VariantRules.choice(
                variant.options.map { ($0.name, $0.value) }, at: "variants[\(index)].options", of: options, into: &errors)
            guard let chosen else { continue }
            errors.require(
                combinations.insert(chosen).inserted, "variants[\(index)].options", "chooses the values of another variant")
            drafts.append(
                VariantDraft(id: system.newID(), sku: variant.sku, options: chosen, price: variant.price, stock: variant.stock))
        }
        return drafts
    }
}
