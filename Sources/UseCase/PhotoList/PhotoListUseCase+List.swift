// once: created by scenegen from Specs/PhotoList.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension PhotoListUseCase {
    /// `GET /v1/items/{item_id}/photos` (auth: public): one page of the photos of the item's
    /// reviews, newest first, each with its URL.
    /// - Throws: `ValidationError` for a cursor this service did not issue; `StoreUnavailable`.
    public func list(_ input: PhotoListListInput) async throws -> PhotoListListOutcome {
        let page = try PageRequest(limit: input.limit, cursor: input.cursor)
        guard let found = try await store.page(itemID: input.itemID, after: page.after, limit: page.fetchLimit) else {
            return .itemNotFound(itemID: input.itemID)
        }
        return .page(Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) })
    }
}
