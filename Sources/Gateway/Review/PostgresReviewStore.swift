import Domain
import Foundation
import Postgres

/// `ReviewStore` on PostgreSQL: tables `reviews` and `review_photos`, and the rating columns of
/// `items` (Migrations/0006_reviews.sql).
public struct PostgresReviewStore: ReviewStore {
    static let columns = "id, item_id, customer_id, content, rating, created_at"
    static let photoColumns = "id, review_id, item_id, filename, content_type, size, created_at"

    private let database: PostgresPool

    /// Where the media API's files are published (`MEDIA_PUBLIC_URL`): a photo's URL is this and
    /// its file name.
    private let mediaURL: String?
    /// Where a new review forgets its item, whose count and rating it changes.
    private let itemCache: ItemCache

    public init(database: PostgresPool, mediaURL: String? = nil, itemCache: ItemCache = .off) {
        self.database = database
        self.mediaURL = mediaURL
        self.itemCache = itemCache
    }

    public func insert(_ review: Review) async throws {
        do {
            try await itemCache.forgetting(items: [review.itemID]) {
                try await translatingUnavailable {
                    try await database.withTransaction { connection in
                        try await connection.query(
                            "INSERT INTO reviews (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6)",
                            review.id, review.itemID, review.customerID, review.content, review.rating, review.createdAt)
                        // The row lock of this UPDATE orders concurrent reviews of one item; an item
                        // archived takes no review (its insert rolls back).
                        let counted = try await connection.query(
                            """
                            UPDATE items SET review_count = review_count + 1, rating_sum = rating_sum + $2
                            WHERE id = $1 AND archived_at IS NULL RETURNING id
                            """, review.itemID, review.rating)
                        guard !counted.rows.isEmpty else { throw ReviewError.itemNotFound(review.itemID) }
                    }
                }
            }
        } catch let error as PostgresError where error.constraint == "reviews_customer_item_key" {
            throw ReviewError.alreadyReviewed(itemID: review.itemID)
        } catch let error as PostgresError where error.constraint == "reviews_item_id_fkey" {
            throw ReviewError.itemNotFound(review.itemID)
        }
    }

    public func review(id: UUID) async throws -> Review? {
        try await translatingUnavailable {
            let rows = try await database.query(
                """
                SELECT \(Self.columns) FROM reviews
                WHERE id = $1 AND EXISTS (SELECT 1 FROM items i WHERE i.id = reviews.item_id AND i.archived_at IS NULL)
                """, id
            ).rows
            return try await withPhotos(rows.map(Self.review(from:))).first
        }
    }

    public func reviews(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [Review] {
        try await translatingUnavailable {
            let order = "ORDER BY created_at DESC, id DESC"
            let rows: [PostgresRow]
            if let cursor {
                rows = try await database.query(
                    "SELECT \(Self.columns) FROM reviews WHERE item_id = $1 AND (created_at, id) < ($2::timestamptz, $3::uuid) \(order) LIMIT $4",
                    itemID, cursor.createdAt, cursor.id, limit
                ).rows
            } else {
                rows = try await database.query("SELECT \(Self.columns) FROM reviews WHERE item_id = $1 \(order) LIMIT $2", itemID, limit)
                    .rows
            }
            return try await withPhotos(rows.map(Self.review(from:)))
        }
    }

    /// The reviews with their photos, fetched in one statement for the whole page.
    private func withPhotos(_ reviews: [Review]) async throws -> [Review] {
        guard !reviews.isEmpty else { return [] }
        let rows = try await database.query(
            "SELECT \(Self.photoColumns) FROM review_photos WHERE review_id = ANY($1::uuid[]) ORDER BY created_at, id",
            PostgresUUIDArray(reviews.map(\.id))
        ).rows
        let photos = Dictionary(grouping: try rows.map(photo(from:)), by: \.reviewID)
        return reviews.map { review in
            var review = review
            review.photos = photos[review.id] ?? []
            return review
        }
    }

    public func ratingSummary(itemID: UUID) async throws -> RatingSummary {
        try await translatingUnavailable {
            let rows = try await database.query(
                "SELECT rating, count(*)::int AS n FROM reviews WHERE item_id = $1 GROUP BY rating", itemID
            ).rows
            var histogram: [Int: Int] = [:]
            for row in rows { histogram[try row.decode("rating")] = try row.decode("n") }
            return RatingSummary(histogram: histogram)
        }
    }

    public func itemExists(id: UUID) async throws -> Bool {
        try await translatingUnavailable {
            try await !database.query("SELECT 1 FROM items WHERE id = $1 AND archived_at IS NULL", id).rows.isEmpty
        }
    }

    public func reservePhotoSlot(id: UUID, reviewID: UUID, limit: Int, expiresAt: Date, now: Date) async throws -> Bool {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // Locks the review: concurrent uploads to it count one after another.
                let locked = try await connection.query("SELECT id FROM reviews WHERE id = $1 FOR UPDATE", reviewID)
                guard !locked.rows.isEmpty else { return false }
                // Expired places, and this one's own if an earlier try of it took one and died.
                try await connection.query(
                    "DELETE FROM review_photo_slots WHERE review_id = $1 AND (expires_at <= $3 OR id = $2)", reviewID, id, now)
                let taken: Int = try await connection.query(
                    """
                    SELECT ((SELECT count(*) FROM review_photos WHERE review_id = $1)
                          + (SELECT count(*) FROM review_photo_slots WHERE review_id = $1))::int AS n
                    """, reviewID
                ).rows[0].decode("n")
                guard taken < limit else { return false }
                try await connection.query(
                    "INSERT INTO review_photo_slots (id, review_id, expires_at) VALUES ($1, $2, $3)", id, reviewID, expiresAt)
                return true
            }
        }
    }

    public func addPhoto(_ photo: ReviewPhoto, slotID: UUID) async throws -> ReviewPhoto {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await connection.query("DELETE FROM review_photo_slots WHERE id = $1", slotID)
                try await connection.query(
                    "INSERT INTO review_photos (\(Self.photoColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    photo.id, photo.reviewID, photo.itemID, photo.filename, photo.format.rawValue, photo.size, photo.createdAt)
            }
        }
        return ReviewPhoto(
            id: photo.id, reviewID: photo.reviewID, itemID: photo.itemID, filename: photo.filename, format: photo.format,
            size: photo.size, createdAt: photo.createdAt, url: MediaURL.of(photo.filename, at: mediaURL))
    }

    public func releasePhotoSlot(id: UUID) async throws {
        try await translatingUnavailable {
            try await database.query("DELETE FROM review_photo_slots WHERE id = $1", id)
        }
    }

    static func review(from row: PostgresRow) throws -> Review {
        Review(
            id: try row.decode("id"), itemID: try row.decode("item_id"), customerID: try row.decode("customer_id"),
            content: try row.decode("content"), rating: try row.decode("rating"), photos: [], createdAt: try row.decode("created_at"))
    }

    /// Decodes a row selected with `photoColumns`, its URL under `mediaURL`.
    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.
    func photo(from row: PostgresRow) throws -> ReviewPhoto {
        let filename: String = try row.decode("filename")
        return ReviewPhoto(
            id: try row.decode("id"), reviewID: try row.decode("review_id"), itemID: try row.decode("item_id"), filename: filename,
            format: try row.enumeration("content_type", as: PhotoFormat.self), size: try row.decode("size"),
            createdAt: try row.decode("created_at"), url: MediaURL.of(filename, at: mediaURL))
    }
}
