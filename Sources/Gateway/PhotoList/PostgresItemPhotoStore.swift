import Domain
import Foundation
import Postgres

/// `ItemPhotoStore` on PostgreSQL: table `review_photos` (Migrations/0006_reviews.sql), each
/// photo's URL where the media API publishes its file.
public struct PostgresItemPhotoStore: ItemPhotoStore {
    static let columns = "id, item_id, review_id, filename, content_type, size, created_at"

    private let database: PostgresPool
    /// Where the media API's files are published (`MEDIA_PUBLIC_URL`).
    private let mediaURL: String?

    public init(database: PostgresPool, mediaURL: String? = nil) {
        self.database = database
        self.mediaURL = mediaURL
    }

    public func page(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [ItemPhoto]? {
        try await translatingUnavailable {
            let order = "ORDER BY created_at DESC, id DESC"
            // An archived item's photos are not listed, as its reviews are not.
            let onSale = "EXISTS (SELECT 1 FROM items WHERE id = $1 AND archived_at IS NULL)"
            let found: [ItemPhoto]
            if let cursor {
                found = try await database.query(
                    """
                    SELECT \(Self.columns) FROM review_photos
                    WHERE item_id = $1 AND \(onSale) AND (created_at, id) < ($2::timestamptz, $3::uuid)
                    \(order) LIMIT $4
                    """, itemID, cursor.createdAt, cursor.id, limit
                ).rows.map(photo(from:))
            } else {
                found = try await database.query(
                    "SELECT \(Self.columns) FROM review_photos WHERE item_id = $1 AND \(onSale) \(order) LIMIT $2", itemID, limit
                )
                .rows.map(photo(from:))
            }
            if found.isEmpty, try await database.query("SELECT 1 FROM items WHERE id = $1 AND archived_at IS NULL", itemID).rows.isEmpty {
                return nil
            }
            return found
        }
    }

    /// Decodes a row selected with `columns`.
    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.
    func photo(from row: PostgresRow) throws -> ItemPhoto {
        let filename: String = try row.decode("filename")
        return ItemPhoto(
            id: try row.decode("id"), itemID: try row.decode("item_id"), reviewID: try row.decode("review_id"), filename: filename,
            contentType: try row.enumeration("content_type", as: PhotoFormat.self), size: try row.decode("size"),
            createdAt: try row.decode("created_at"), url: MediaURL.of(filename, at: mediaURL))
    }
}
