import Domain
import Foundation
import Postgres

/// `PhotoListStore` on PostgreSQL: `review_photos` by its `(item_id, created_at, id)` index.
public struct PostgresPhotoListStore: PhotoListStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func photos(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [ReviewPhoto] {
        try await translatingUnavailable {
            let select = "SELECT \(PostgresReviewStore.photoColumns) FROM review_photos WHERE item_id = $1"
            let order = "ORDER BY created_at DESC, id DESC"
            let rows: [PostgresRow]
            if let cursor {
                rows = try await database.query(
                    "\(select) AND (created_at, id) < ($2::timestamptz, $3::uuid) \(order) LIMIT $4", itemID, cursor.createdAt, cursor.id,
                    limit
                ).rows
            } else {
                rows = try await database.query("\(select) \(order) LIMIT $2", itemID, limit).rows
            }
            return try rows.map(PostgresReviewStore.photo(from:))
        }
    }

    public func itemExists(id: UUID) async throws -> Bool {
        try await PostgresReviewStore(database: database).itemExists(id: id)
    }
}
