// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `DELETE /v1/admin/variants/{id}` (auth: admin): the variant leaves the catalog and every
    /// cart; orders and its stock history keep naming it. An item keeps at least one variant.
    /// - Throws: `StoreUnavailable`.
    public func removeVariant(_ input: CatalogRemoveVariantInput) async throws -> CatalogRemoveVariantOutcome {
        do {
            guard let item = try await store.removeVariant(id: input.id, at: system.now()) else { return .notFound(id: input.id) }
            return .item(item)
        } catch CatalogError.lastVariant {
            return .lastVariant(id: input.id)
        }
    }
}
