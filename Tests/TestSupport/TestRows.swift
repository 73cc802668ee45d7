import Foundation

/// Rows of tables whose scenes keep them through hand-written stores (no spec entity describes
/// their columns), made straight in the database for tests: scenegen's generated tests call
/// these when a field references such a table (`references: items`).
public enum TestRows {
    /// An item with a unique SKU, priced 100 JPY, one in stock.
    public static func insertItem(_ db: TestDatabase, customerID: UUID) async throws -> UUID {
        let id = UUID()
        try await db.pool.query(
            "INSERT INTO items (id, sku, name, category, price_amount, price_currency, stock) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            id, String(UUID().uuidString.prefix(32)), "a", "a", Int64(100), "JPY", Int(1)
        )
        return id
    }

    /// A review by `customerID` of a new item, rated 5.
    public static func insertReview(_ db: TestDatabase, customerID: UUID) async throws -> UUID {
        let id = UUID()
        let item = try await insertItem(db, customerID: customerID)
        try await db.pool.query(
            "INSERT INTO reviews (id, item_id, customer_id, content, rating) VALUES ($1, $2, $3, $4, $5)", id, item, customerID, "a", 5)
        return id
    }
}
