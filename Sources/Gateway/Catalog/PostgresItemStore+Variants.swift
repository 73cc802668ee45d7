import Domain
import Foundation
import Postgres

/// The variants of items: added, changed, removed, and their stock changed by a delta and read
/// back as its history (`stock_movements`).
extension PostgresItemStore {
    public func addVariant(_ variant: VariantDraft, to itemID: UUID, expecting expected: [ItemOption], options: [ItemOption], at: Date)
        async throws -> Item?
    {
        let found: Bool
        do {
            found = try await cache.forgetting(items: [itemID]) {
                try await translatingUnavailable {
                    try await database.withTransaction { connection in
                        // The item's row, locked: its options are checked and set under the lock.
                        guard
                            let row = try await connection.query(
                                "SELECT options, price_currency FROM items WHERE id = $1 FOR UPDATE", itemID
                            )
                            .rows.first
                        else { return false }
                        guard try CatalogJSON.options(try row.decode("options")) == expected else { throw CatalogError.itemChanged }
                        guard try row.decode("price_currency", as: String.self) == variant.price.currency.code else {
                            throw CatalogError.itemChanged
                        }
                        try await connection.query(
                            "UPDATE items SET options = $2::jsonb WHERE id = $1", itemID, CatalogJSON.encode(options))
                        try await connection.query(
                            """
                            WITH variant AS (
                                INSERT INTO item_variants (id, item_id, position, sku, options, price_amount, price_currency, stock, created_at)
                                SELECT $1, $2, COALESCE(max(position) + 1, 0), $3, $4::jsonb, $5, $6, $7, $8 FROM item_variants WHERE item_id = $2
                                RETURNING id, stock
                            )
                            INSERT INTO stock_movements (variant_id, delta, stock_after, reason, at)
                            SELECT id, stock, stock, 'created', $8 FROM variant
                            """,
                            variant.id, itemID, variant.sku, CatalogJSON.encode(variant.options), variant.price.amount,
                            variant.price.currency.code, variant.stock, at)
                        try await Self.refreshLowestPrice(of: itemID, on: connection)
                        return true
                    }
                }
            }
        } catch let error as PostgresError where error.constraint == "item_variants_sku_key" {
            throw CatalogError.duplicateSKU(variant.sku)
        } catch let error as PostgresError where error.constraint == "item_variants_options_key" {
            throw CatalogError.duplicateCombination
        }
        return found ? try await item(id: itemID) : nil
    }

    public func updateVariant(id: UUID, sku: String?, priceAmount: Int64?) async throws -> Item? {
        let itemID: UUID?
        do {
            itemID = try await cache.forgetting(owning: [id]) {
                try await translatingUnavailable {
                    try await database.withTransaction { connection in
                        guard
                            let row = try await connection.query(
                                """
                                UPDATE item_variants SET sku = COALESCE($2, sku), price_amount = COALESCE($3, price_amount)
                                WHERE id = $1 AND removed_at IS NULL RETURNING item_id
                                """, id, sku, priceAmount
                            ).rows.first
                        else { return nil }
                        let itemID: UUID = try row.decode("item_id")
                        if priceAmount != nil { try await Self.refreshLowestPrice(of: itemID, on: connection) }
                        return itemID
                    }
                }
            }
        } catch let error as PostgresError where error.constraint == "item_variants_sku_key" {
            throw CatalogError.duplicateSKU(sku ?? "")
        }
        guard let itemID else { return nil }
        return try await item(id: itemID)
    }

    public func archive(itemID: UUID, at archivedAt: Date?) async throws -> Item? {
        let found: Bool = try await cache.forgetting(items: [itemID]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    // FOR UPDATE waits for cart lines being added to its variants (their trigger
                    // holds the item's key share, Migrations/0038), and makes later ones wait and
                    // then refuse it.
                    guard !(try await connection.query("SELECT 1 FROM items WHERE id = $1 FOR UPDATE", itemID).rows.isEmpty) else {
                        return false
                    }
                    // Its variants too, as a checkout's reservation does: a checkout that reserved
                    // one is waited for (its order placed before the archive), and one reserving
                    // after waits for the archive and then finds the item archived. In id order, as
                    // checkouts lock them.
                    if archivedAt != nil {
                        try await connection.query("SELECT 1 FROM item_variants WHERE item_id = $1 ORDER BY id FOR NO KEY UPDATE", itemID)
                    }
                    // An archive keeps its first time: archiving again, or twice at once, moves nothing.
                    try await connection.query(
                        "UPDATE items SET archived_at = CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE COALESCE(archived_at, $2) END WHERE id = $1",
                        itemID, archivedAt)
                    if archivedAt != nil {
                        try await connection.query(
                            "DELETE FROM cart_lines l USING item_variants v WHERE v.id = l.variant_id AND v.item_id = $1", itemID)
                    }
                    return true
                }
            }
        }
        return found ? try await item(id: itemID) : nil
    }

    public func removeVariant(id: UUID, at: Date) async throws -> Item? {
        let itemID: UUID? = try await cache.forgetting(owning: [id]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    // The item's row first, as every change of its variants takes it: two removals of
                    // its last two variants cannot both see a sibling left, and cart lines being
                    // added to the item (their trigger holds its key share, Migrations/0038) are
                    // waited for and deleted below, while later ones wait and are refused.
                    guard
                        let row = try await connection.query(
                            """
                            SELECT i.id FROM items i JOIN item_variants v ON v.item_id = i.id
                            WHERE v.id = $1 AND v.removed_at IS NULL FOR UPDATE OF i
                            """, id
                        ).rows.first
                    else { return nil }
                    let itemID: UUID = try row.decode("id")
                    let live: Int = try await connection.query(
                        "SELECT count(*)::int AS n FROM item_variants WHERE item_id = $1 AND removed_at IS NULL", itemID
                    ).rows[0].decode("n")
                    guard live > 1 else { throw CatalogError.lastVariant }
                    try await connection.query("UPDATE item_variants SET removed_at = $2 WHERE id = $1", id, at)
                    try await connection.query("DELETE FROM cart_lines WHERE variant_id = $1", id)
                    try await Self.refreshLowestPrice(of: itemID, on: connection)
                    return itemID
                }
            }
        }
        guard let itemID else { return nil }
        return try await item(id: itemID)
    }

    public func adjustStock(variantID: UUID, delta: Int, reason: String, at: Date) async throws -> StockMovement? {
        try await cache.forgetting(owning: [variantID]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    let moved = try await connection.query(
                        """
                        WITH moved AS (
                            UPDATE item_variants SET stock = stock + $2
                            WHERE id = $1 AND removed_at IS NULL AND stock + $2 >= 0 AND ($2 <= 0 OR stock + $2 <= $5)
                            RETURNING id, stock
                        )
                        INSERT INTO stock_movements (variant_id, delta, stock_after, reason, at)
                        SELECT id, $2, stock, $3, $4 FROM moved
                        RETURNING \(Self.movementColumns)
                        """, variantID, delta, reason, at, ItemRules.maxStock
                    ).rows
                    if let row = moved.first { return try Self.movement(from: row) }
                    // Nothing moved: no such variant, or the change would take its stock below zero or,
                    // adding, past the limit (units coming back from orders may pass it; taking
                    // them away again is always allowed).
                    guard
                        let variant = try await connection.query(
                            "SELECT stock FROM item_variants WHERE id = $1 AND removed_at IS NULL", variantID
                        ).rows.first
                    else { return nil }
                    let available: Int = try variant.decode("stock")
                    throw delta < 0 ? CatalogError.insufficientStock(available: available) : CatalogError.stockLimit(available: available)
                }
            }
        }
    }

    public func stockMovements(variantID: UUID, before: Int64?, limit: Int) async throws -> [StockMovement]? {
        try await translatingUnavailable {
            let rows = try await database.query(
                """
                SELECT \(Self.movementColumns) FROM stock_movements
                WHERE variant_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3
                """, variantID, before, limit
            ).rows
            if rows.isEmpty, try await database.query("SELECT 1 FROM item_variants WHERE id = $1", variantID).rows.isEmpty {
                return nil
            }
            return try rows.map(Self.movement(from:))
        }
    }

    static let movementColumns = "id, variant_id, delta, stock_after, reason, order_id, at"

    static func movement(from row: PostgresRow) throws -> StockMovement {
        StockMovement(
            id: try row.decode("id"), variantID: try row.decode("variant_id"), delta: try row.decode("delta"),
            stockAfter: try row.decode("stock_after"), reason: try row.decode("reason"), orderID: try row.decode("order_id"),
            at: try row.decode("at"))
    }
}
