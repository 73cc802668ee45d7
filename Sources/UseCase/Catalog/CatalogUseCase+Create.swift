// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `POST /v1/admin/items` (auth: admin): a new item with one variant, which has the item's
    /// SKU, price and stock; the SKU is the shop's only one.
    /// - Throws: `ValidationError` for a SKU of other characters or a blank name or category;
    ///   `StoreUnavailable`.
    public func create(_ input: CatalogCreateInput) async throws -> CatalogCreateOutcome {
        var errors = FieldErrors()
        ItemRules.checkSKU(input.sku, into: &errors)
        ItemRules.checkNotBlank(input.name, field: "name", into: &errors)
        ItemRules.checkNotBlank(input.category, field: "category", into: &errors)
        try errors.throwIfAny()
        let draft = ItemDraft(
            sku: input.sku, name: input.name, description: input.description, category: input.category,
            variants: [VariantDraft(id: system.newID(), sku: input.sku, price: input.price, stock: input.stock)])
        do {
            return .created(try await store.create(id: system.newID(), draft: draft, createdAt: system.now()))
        } catch CatalogError.duplicateSKU(let sku) {
            return .duplicateSKU(sku: sku)
        }
    }
}
