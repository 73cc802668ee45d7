// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `GET /v1/items/{id}` (auth: public): an archived item is not shown.
    /// - Throws: `StoreUnavailable`.
    public func show(_ input: CatalogShowInput) async throws -> CatalogShowOutcome {
        guard let item = try await store.shownItem(id: input.id), item.archivedAt == nil else { return .notFound(id: input.id) }
        return .item(item)
    }
}
