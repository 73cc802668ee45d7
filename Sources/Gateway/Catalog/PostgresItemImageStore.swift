import Domain
import Foundation
import Postgres

/// `ItemImageStore` on PostgreSQL: table `item_images` (Migrations/0016_item_images.sql). Every
/// change of an item's images takes the item's row first, so counts and positions stay exact
/// under concurrent uploads and moves.
public struct PostgresItemImageStore: ItemImageStore {
    let database: PostgresPool
    /// Where the media API's files are published (`MEDIA_PUBLIC_URL`).
    let mediaURL: String?
    /// Where every change made here forgets the image's item.
    let cache: ItemCache

    public init(database: PostgresPool, mediaURL: String? = nil, cache: ItemCache = .off) {
        self.database = database
        self.mediaURL = mediaURL
        self.cache = cache
    }

    static let columns = "id, item_id, variant_id, filename, alt, position"

    public func add(_ image: NewItemImage, limit: Int) async throws -> ItemImageAddition {
        try await cache.forgetting(items: [image.itemID]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    guard try await !connection.query("SELECT 1 FROM items WHERE id = $1 FOR UPDATE", image.itemID).rows.isEmpty else {
                        return .itemNotFound
                    }
                    if let variant = image.variantID {
                        let live = try await connection.query(
                            "SELECT 1 FROM item_variants WHERE id = $1 AND item_id = $2 AND removed_at IS NULL", variant, image.itemID)
                        guard !live.rows.isEmpty else { return .notAVariantOfTheItem(variantID: variant) }
                    }
                    let count: Int = try await connection.query(
                        "SELECT count(*)::int AS n FROM item_images WHERE item_id = $1", image.itemID
                    ).rows[0].decode("n")
                    guard count < limit else { return .full }
                    let row = try await connection.query(
                        """
                        INSERT INTO item_images (id, item_id, variant_id, filename, content_type, size, alt, position, created_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING \(Self.columns)
                        """, image.id, image.itemID, image.variantID, image.filename, image.format.rawValue, image.size, image.alt, count,
                        image.createdAt
                    ).rows[0]
                    return .added(try self.image(from: row))
                }
            }
        }
    }

    public func update(id: UUID, alt: String?, position: Int?) async throws -> ItemImage? {
        try await cache.forgetting(owning: [id]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    guard
                        let found = try await connection.query(
                            "SELECT i.id FROM items i JOIN item_images m ON m.item_id = i.id WHERE m.id = $1 FOR UPDATE OF i", id
                        ).rows.first
                    else { return nil }
                    let itemID: UUID = try found.decode("id")
                    if let alt { try await connection.query("UPDATE item_images SET alt = $2 WHERE id = $1", id, alt) }
                    if let position {
                        // The image leaves its place and takes `position` (at most the last); the
                        // others keep their order around it.
                        var order: [UUID] = try await connection.query(
                            "SELECT id FROM item_images WHERE item_id = $1 ORDER BY position, id", itemID
                        ).rows.map { try $0.decode("id") }
                        order.removeAll { $0 == id }
                        order.insert(id, at: min(position, order.count))
                        try await connection.query(
                            """
                            UPDATE item_images m SET position = o.position - 1
                            FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, position) WHERE m.id = o.id
                            """, PostgresUUIDArray(order))
                    }
                    return try await connection.query("SELECT \(Self.columns) FROM item_images WHERE id = $1", id).rows.first.map(
                        image(from:))
                }
            }
        }
    }

    public func remove(id: UUID) async throws -> String? {
        try await cache.forgetting(owning: [id]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    guard
                        try await !connection.query(
                            "SELECT i.id FROM items i JOIN item_images m ON m.item_id = i.id WHERE m.id = $1 FOR UPDATE OF i", id
                        ).rows.isEmpty,
                        let removed = try await connection.query(
                            "DELETE FROM item_images WHERE id = $1 RETURNING item_id, filename", id
                        ).rows.first
                    else { return nil }
                    // The images after it move up: positions stay 0, 1, 2, ...
                    try await connection.query(
                        """
                        UPDATE item_images m SET position = o.position - 1
                        FROM (SELECT id, row_number() OVER (ORDER BY position, id) AS position FROM item_images WHERE item_id = $1) o
                        WHERE m.id = o.id
                        """, try removed.decode("item_id", as: UUID.self))
                    return try removed.decode("filename")
                }
            }
        }
    }

    public func count(itemID: UUID) async throws -> Int? {
        try await translatingUnavailable {
            let rows = try await database.query(
                "SELECT (SELECT count(*)::int FROM item_images WHERE item_id = $1) AS n FROM items WHERE id = $1", itemID
            ).rows
            return try rows.first?.decode("n")
        }
    }

    func image(from row: PostgresRow) throws -> ItemImage {
        let filename: String = try row.decode("filename")
        return ItemImage(
            id: try row.decode("id"), url: MediaURL.of(filename, at: mediaURL), alt: try row.decode("alt"),
            variantID: try row.decode("variant_id"), position: try row.decode("position"))
    }
}
