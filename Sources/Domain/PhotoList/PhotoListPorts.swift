import Foundation

/// Where the photos of an item's reviews are read from. Implemented by `PostgresPhotoListStore`.
public protocol PhotoListStore: Sendable {
    /// The photos of the item's reviews, newest first, strictly after `cursor`.
    /// - Throws: `StoreUnavailable`.
    func photos(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [ReviewPhoto]

    /// - Throws: `StoreUnavailable`.
    func itemExists(id: UUID) async throws -> Bool
}
