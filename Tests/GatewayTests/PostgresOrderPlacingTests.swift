import Domain
import Foundation
import Postgres
import TestSupport
import Testing

@testable import Gateway

/// Placing an order reads the cart's prices before it locks a variant (`PostgresOrderStore+Placing`):
/// a price the staff change in between must not be sold at the old one. The test stops the
/// checkout between its cart read and its reservation (it waits for a lock on `shipping_methods`,
/// which it reads in between), changes the price, and lets it go on, on real PostgreSQL.
@Suite("Placing an order on real PostgreSQL")
struct PostgresOrderPlacingTests {
    @Test func aPriceChangedAfterTheCartWasReadIsTheOneCharged() async throws {
        try await TestDatabase.with { db in
            let yen = Currency("JPY")!
            let customer = UUID()
            let variant = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'placing@example.com', 'P', 'h')", customer)
            _ = try await PostgresItemStore(database: db.pool).create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "ITEM", name: "Item", description: "", category: "c", options: [],
                    variants: [VariantDraft(id: variant, sku: "V", options: [], price: Money(amount: 100, currency: yen), stock: 10)]),
                createdAt: Date())
            try await db.pool.query("INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, 3)", customer, variant)
            let store = PostgresOrderStore(database: db.pool, currency: yen)
            let request = CheckoutRequest(customerID: customer, paymentMethod: "pm_card_visa", idempotencyKey: "price-moved")

            let placed = try await db.pool.withTransaction { holder in
                try await holder.query("LOCK TABLE shipping_methods IN ACCESS EXCLUSIVE MODE")
                let checkout = Task { try await store.placeOrder(id: UUID(), request: request, at: Date()) }
                try await Self.waitForLockWaiter(on: "shipping_methods", pool: db.pool)
                try await db.pool.query("UPDATE item_variants SET price_amount = 250 WHERE id = $1", variant)
                return checkout
            }
            let (order, created) = try await placed.value
            #expect(created)
            #expect(order.total == Money(amount: 750, currency: yen))
            #expect(order.lines.map(\.unitPrice) == [Money(amount: 250, currency: yen)])
            let stock: Int = try await db.pool.query("SELECT stock FROM item_variants WHERE id = $1", variant).rows[0].decode("stock")
            #expect(stock == 7, "reserved once, by the run that priced it")
            let movements: Int = try await db.pool.query(
                "SELECT count(*)::integer AS n FROM stock_movements WHERE variant_id = $1 AND reason = 'ordered'", variant
            ).rows[0].decode("n")
            #expect(movements == 1)
        }
    }

    /// Waits until another session waits for a lock on `table`.
    private static func waitForLockWaiter(on table: String, pool: PostgresPool) async throws {
        for _ in 0..<500 {
            let waiting = try await pool.query(
                "SELECT 1 FROM pg_locks WHERE NOT granted AND relation = (SELECT oid FROM pg_class WHERE relname = $1)", table
            ).rows
            if !waiting.isEmpty { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no session waited for \(table)")
    }
}
