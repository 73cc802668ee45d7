// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `GET /v1/admin/items/{id}` (auth: admin): the item as it is now, archived or not (read
    /// from the database, not from the item cache).
    /// - Throws: `StoreUnavailable`.
    public func staffShow(_ input: CatalogStaffShowInput) async throws -> CatalogStaffShowOutcome {
        guard let item = try await store.item(id: input.id) else { return .notFound(id: input.id) }
        return .item(item)
    }
}
