import Domain
import Foundation
import Postgres

/// `ItemStore` on PostgreSQL: table `items` (Migrations/0001_catalog.sql).
public struct PostgresItemStore: ItemStore {
    /// At most this many search words are matched; the rest are ignored.
    static let maxSearchWords = 5
    static let columns = "id, sku, name, description, category, price_amount, price_currency, stock, created_at, review_count, rating_sum"
    static let insert = """
        INSERT INTO items (id, sku, name, description, category, price_amount, price_currency, stock, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING \(columns)
        """

    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func items(matching filter: ItemFilter, after cursor: PageCursor?, limit: Int) async throws -> [Item] {
        var query = ItemListQuery()
        if let category = filter.category { query.where("category = $", category) }
        let words = (filter.search ?? "").split(whereSeparator: \.isWhitespace).prefix(Self.maxSearchWords)
        for word in words { query.where("(name || ' ' || description) ILIKE $", SQLPattern.contains(String(word))) }
        if let cursor {
            query.where("(created_at, id) < ($::timestamptz, $::uuid)", cursor.createdAt, cursor.id)
        }
        // The limit is bound too, so every page size shares one prepared statement.
        let sql = "SELECT \(Self.columns) FROM items\(query.whereClause) ORDER BY created_at DESC, id DESC LIMIT $\(query.binds.count + 1)"
        return try await translatingUnavailable {
            try await database.query(sql, binds: query.binds + [limit]).rows.map(Self.item(from:))
        }
    }

    public func item(id: UUID) async throws -> Item? {
        try await translatingUnavailable {
            try await database.query("SELECT \(Self.columns) FROM items WHERE id = $1", id).rows.first.map(Self.item(from:))
        }
    }

    public func insertIfEmpty(_ items: [Item]) async throws -> Bool {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // Blocks concurrent writers (and seeders) until commit; readers go on.
                try await connection.query("LOCK TABLE items IN SHARE ROW EXCLUSIVE MODE")
                guard try await connection.query("SELECT 1 FROM items LIMIT 1").rows.isEmpty else { return false }
                for item in items {
                    try await connection.query(
                        Self.insert, item.id, item.sku, item.name, item.description,
                        item.category, item.price.amount, item.price.currency.code,
                        item.stock, item.createdAt)
                }
                return true
            }
        }
    }

    public func create(id: UUID, draft: ItemDraft, price: Money, createdAt: Date) async throws -> Item {
        do {
            let rows = try await translatingUnavailable {
                try await database.query(
                    Self.insert,
                    id, draft.sku, draft.name, draft.description, draft.category, price.amount,
                    price.currency.code, draft.stock, createdAt
                ).rows
            }
            return try Self.item(from: rows[0])
        } catch let error as PostgresError where error.constraint == "items_sku_key" {
            throw CatalogError.duplicateSKU(draft.sku)
        }
    }

    public func update(id: UUID, changes: ItemChanges) async throws -> Item? {
        try await translatingUnavailable {
            try await database.query(
                """
                UPDATE items SET
                    name = COALESCE($2, name),
                    description = COALESCE($3, description),
                    category = COALESCE($4, category),
                    price_amount = COALESCE($5, price_amount),
                    price_currency = COALESCE($6, price_currency),
                    stock = COALESCE($7, stock)
                WHERE id = $1 RETURNING \(Self.columns)
                """,
                id, changes.name, changes.description, changes.category, changes.priceAmount,
                changes.currency, changes.stock
            ).rows.first.map(Self.item(from:))
        }
    }

    /// Decodes a row selected with `columns`.
    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.
    static func item(from row: PostgresRow) throws -> Item {
        let reviewCount: Int = try row.decode("review_count")
        return Item(
            id: try row.decode("id"),
            sku: try row.decode("sku"),
            name: try row.decode("name"),
            description: try row.decode("description"),
            category: try row.decode("category"),
            price: try row.money(amount: "price_amount", currency: "price_currency"),
            stock: try row.decode("stock"),
            createdAt: try row.decode("created_at"),
            reviewCount: reviewCount,
            ratingAverage: reviewCount > 0 ? RatingSummary.rounded(sum: try row.decode("rating_sum"), count: reviewCount) : nil
        )
    }
}

/// The WHERE clause of an item list, numbering `$` placeholders as conditions are added so the
/// statement stays parameterized whatever the filter holds.
private struct ItemListQuery {
    private(set) var binds: [any PostgresEncodable] = []
    private var conditions: [String] = []

    /// Adds a condition; each bare `$` in it is numbered for the next of `values`.
    mutating func `where`(_ condition: String, _ values: any PostgresEncodable...) {
        var numbered = ""
        var remaining = values[...]
        for character in condition {
            numbered.append(character)
            if character == "$", let value = remaining.popFirst() {
                binds.append(value)
                numbered += String(binds.count)
            }
        }
        conditions.append(numbered)
    }

    var whereClause: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }
}
