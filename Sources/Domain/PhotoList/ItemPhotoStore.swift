import Foundation

/// Where the photos of items' reviews are read (`review_photos`). Implemented by
/// `PostgresItemPhotoStore`; mocked in use-case tests.
public protocol ItemPhotoStore: Sendable {
    /// The item's photos newest first, strictly after `cursor`, at most `limit` of them, each
    /// with its URL.
    /// - Throws: `RecordError.notFound` when the item does not exist, `StoreUnavailable`.
    func page(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [ItemPhoto]
}
