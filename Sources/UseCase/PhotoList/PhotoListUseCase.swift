import Domain
import Foundation

/// Every photo of an item's reviews, as one paged list (an item page's gallery).
public struct PhotoListUseCase: Sendable {
    let store: any PhotoListStore

    public init(store: any PhotoListStore) {
        self.store = store
    }

    /// - Throws: `ValidationError` for a bad limit or cursor, `ReviewError.itemNotFound`,
    ///   `StoreUnavailable`.
    public func photos(itemID: UUID, limit: Int?, cursor: String?) async throws -> Page<ReviewPhoto> {
        let page = try PageRequest(limit: limit, cursor: cursor)
        guard try await store.itemExists(id: itemID) else { throw ReviewError.itemNotFound(itemID) }
        let found = try await store.photos(itemID: itemID, after: page.after, limit: page.fetchLimit)
        return Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }
    }
}
