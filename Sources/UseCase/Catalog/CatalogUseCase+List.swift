// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `GET /v1/items` (auth: public): one page of items, newest first, whose name or
    /// description holds every word of `q` and whose category is `category`.
    /// - Throws: `ValidationError` for a bad limit or cursor; `StoreUnavailable`.
    public func list(_ input: CatalogListInput) async throws -> CatalogListOutcome {
        let page = try PageRequest(limit: input.limit, cursor: input.cursor)
        let search = input.q?.trimmingCharacters(in: .whitespacesAndNewlines)
        let filter = ItemFilter(search: search?.isEmpty == false ? search : nil, category: input.category)
        let found = try await store.items(matching: filter, after: page.after, limit: page.fetchLimit)
        return .page(Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) })
    }
}
