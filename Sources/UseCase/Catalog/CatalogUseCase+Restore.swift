// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `POST /v1/admin/items/{id}/restore` (auth: admin): puts an archived item back on sale (its
    /// carts' lines do not come back).
    /// - Throws: `StoreUnavailable`.
    public func restore(_ input: CatalogRestoreInput) async throws -> CatalogRestoreOutcome {
        guard let item = try await store.archive(itemID: input.id, at: nil) else { return .notFound(id: input.id) }
        return .item(item)
    }
}
