import Foundation

/// Where the photos of items' reviews are read (`review_photos`). Implemented by
/// `PostgresItemPhotoStore`; mocked in use-case tests.
public protocol ItemPhotoStore: Sendable {
    /// The item's photos newest first, strictly after `cursor`, at most `limit` of them, each
    /// with its URL; `nil` when no such item is on sale (none, or archived).
    /// - Throws: `StoreUnavailable`.
    func page(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [ItemPhoto]?
}
