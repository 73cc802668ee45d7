// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `POST /v1/admin/items/{id}/archive` (auth: admin): takes the item off sale; archiving
    /// one already archived keeps its first time.
    /// - Throws: `StoreUnavailable`.
    public func archive(_ input: CatalogArchiveInput) async throws -> CatalogArchiveOutcome {
        guard let item = try await store.archive(itemID: input.id, at: system.now()) else { return .notFound(id: input.id) }
        return .item(item)
    }
}
