import Foundation

/// Rows of tables whose scenes keep them through hand-written stores (no spec entity describes
/// their columns), made straight in the database for tests: scenegen's generated tests call
/// these when a field references such a table (`references: items`).
public enum TestRows {
    /// An item with a unique SKU, priced 100 JPY, one in stock.
    public static func insertItem(_ db: TestDatabase, customerID: UUID) async throws -> UUID {
        try await insertItem(db)
    }

    /// An item with one variant (its own id, not the item's, so a test that mixes them up
    /// fails), straight in the tables.
    /// - Returns: the item's id; `variantID(of:)` finds its variant's.
    @discardableResult
    public static func insertItem(
        _ db: TestDatabase, sku: String? = nil, name: String = "a", category: String = "a", price: Int64 = 100,
        currency: String = "JPY", stock: Int = 1
    ) async throws -> UUID {
        let id = UUID()
        let sku = sku ?? String(UUID().uuidString.prefix(32))
        try await db.pool.query(
            "INSERT INTO items (id, sku, name, category, price_amount, price_currency) VALUES ($1, $2, $3, $4, $5, $6)",
            id, sku, name, category, price, currency)
        try await db.pool.query(
            """
            INSERT INTO item_variants (id, item_id, position, sku, price_amount, price_currency, stock)
            VALUES ($1, $2, 0, $3, $4, $5, $6)
            """, UUID(), id, sku, price, currency, stock)
        return id
    }

    /// The first variant of an item.
    public static func variantID(of item: UUID, _ db: TestDatabase) async throws -> UUID {
        try await db.pool.query("SELECT id FROM item_variants WHERE item_id = $1 ORDER BY position LIMIT 1", item).rows[0].decode("id")
    }

    /// Sets the stock of an item's variants straight in the table.
    public static func setStock(_ db: TestDatabase, item: UUID, _ stock: Int) async throws {
        try await db.pool.query("UPDATE item_variants SET stock = $2 WHERE item_id = $1", item, stock)
    }

    /// The stock of an item's variants together.
    public static func stock(_ db: TestDatabase, item: UUID) async throws -> Int {
        try await db.pool.query("SELECT COALESCE(sum(stock), 0)::int AS stock FROM item_variants WHERE item_id = $1", item).rows[0]
            .decode("stock")
    }

    /// A customer with an email of its own, straight in the table.
    public static func insertCustomer(_ db: TestDatabase) async throws -> UUID {
        let id = UUID()
        try await db.pool.query(
            "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", id, "\(id.uuidString)@example.com")
        return id
    }

    /// An order of `customer` in `status` (pending_payment, paid, ...: no payment action),
    /// totalling `total` JPY, placed and last changed at `at`; no lines.
    public static func insertOrder(
        _ db: TestDatabase, customer: UUID, status: String, total: Int64 = 1200, paymentIntent: String? = nil, at: Date = Date()
    ) async throws -> UUID {
        let id = UUID()
        try await db.pool.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                request_fingerprint, payment_intent_id, created_at, updated_at)
            VALUES ($1, $2, $3, $4, 'JPY', 'pm_card_visa', $5, 'f', $6, $7, $7)
            """, id, customer, status, total, id.uuidString, paymentIntent, at)
        return id
    }

    /// A paid order of `customer` totalling `total` JPY, with one line: `quantity` units at
    /// `price` of a new item with 10 in stock, nothing shipped.
    public static func insertPaidOrder(
        _ db: TestDatabase, customer: UUID, total: Int64, price: Int64 = 100, quantity: Int = 3
    ) async throws -> (order: UUID, item: UUID, variant: UUID) {
        let order = try await insertOrder(db, customer: customer, status: "paid", total: total, paymentIntent: "pi_\(UUID())")
        let item = try await insertItem(db, stock: 10)
        try await insertOrderLine(db, order: order, item: item, price: price, quantity: quantity)
        return (order, item, try await variantID(of: item, db))
    }

    /// A line of `order` buying `quantity` of the item's first variant at `price` JPY.
    public static func insertOrderLine(_ db: TestDatabase, order: UUID, item: UUID, price: Int64, quantity: Int) async throws {
        try await db.pool.query(
            """
            INSERT INTO order_lines (order_id, variant_id, item_id, sku, name, unit_price_amount, unit_price_currency, quantity)
            SELECT $1, v.id, v.item_id, v.sku, i.name, $3, 'JPY', $4 FROM item_variants v JOIN items i ON i.id = v.item_id
            WHERE v.item_id = $2 ORDER BY v.position LIMIT 1
            """, order, item, price, quantity)
    }

    /// A variant of each item that has none (items inserted in bulk straight in `items`), with
    /// the item's SKU and price and `stock` units.
    public static func addVariants(_ db: TestDatabase, stock: Int = 1) async throws {
        try await db.pool.query(
            """
            INSERT INTO item_variants (id, item_id, position, sku, price_amount, price_currency, stock)
            SELECT gen_random_uuid(), i.id, 0, i.sku, i.price_amount, i.price_currency, $1 FROM items i
            WHERE NOT EXISTS (SELECT 1 FROM item_variants v WHERE v.item_id = i.id)
            """, stock)
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
