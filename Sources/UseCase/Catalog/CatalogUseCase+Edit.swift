// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `PATCH /v1/admin/items/{id}` (auth: admin): changes only the fields the body sets, in
    /// one transaction. A price is that of the item's one variant (an item with several refuses
    /// it); a currency is the item's and every variant's. Stock changes by a delta only, through
    /// the variant (`adjustStock`).
    /// - Throws: `ValidationError` for a body that changes nothing or a blank name or
    ///   category; `StoreUnavailable`.
    public func edit(_ input: CatalogEditInput) async throws -> CatalogEditOutcome {
        let changes = ItemChanges(
            name: input.name, description: input.description, category: input.category,
            priceAmount: input.price?.amount, currency: input.price?.currency?.code)
        var errors = FieldErrors()
        errors.require(!changes.isEmpty, "body", "must change at least one of name, description, category, price")
        ItemRules.checkNotBlank(input.name, field: "name", into: &errors)
        ItemRules.checkNotBlank(input.category, field: "category", into: &errors)
        try errors.throwIfAny()
        do {
            guard let saved = try await store.update(id: input.id, changes: changes) else { return .notFound(id: input.id) }
            return .item(saved)
        } catch CatalogError.itemHasVariants(let count) {
            return .itemHasVariants(id: input.id, count: count)
        }
    }
}
