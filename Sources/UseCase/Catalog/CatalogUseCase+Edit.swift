// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `PATCH /v1/admin/items/{id}` (auth: admin): changes only the fields the body sets, in
    /// one statement, so a checkout's concurrent stock change is never overwritten.
    /// - Throws: `ValidationError` for a body that changes nothing or a blank name or
    ///   category; `StoreUnavailable`.
    public func edit(_ input: CatalogEditInput) async throws -> CatalogEditOutcome {
        let changes = ItemChanges(
            name: input.name, description: input.description, category: input.category,
            priceAmount: input.price?.amount, currency: input.price?.currency?.code, stock: input.stock)
        var errors = FieldErrors()
        errors.require(!changes.isEmpty, "body", "must change at least one of name, description, category, price, stock")
        ItemRules.checkNotBlank(input.name, field: "name", into: &errors)
        ItemRules.checkNotBlank(input.category, field: "category", into: &errors)
        try errors.throwIfAny()
        guard let saved = try await store.update(id: input.id, changes: changes) else { return .notFound(id: input.id) }
        return .item(saved)
    }
}
