import Foundation
import Postgres
import TestSupport
import Testing

/// Migrations/0040_withdrawn_units.sql on orders the old count of what is left to ship got wrong:
/// units a staff refund restocked are withdrawn, a return's are not, an unsettled refund holds its
/// share, and an order left with nothing to ship is no longer stuck partly shipped.
@Suite("The migration to withdrawn units on real PostgreSQL")
struct WithdrawnUnitsMigrationTests {
    static let version = 40

    /// A paid order of one line of `quantity`, `shipped` of them shipped (in one shipment,
    /// delivered or not), and a restocking refund of `refunded` units keyed `key` in `status`.
    static func order(
        _ db: TestDatabase, customer: UUID, item: UUID, quantity: Int, shipped: Int, refunded: Int, key: String, status: String,
        delivered: Bool
    ) async throws -> UUID {
        let order = UUID()
        try await db.pool.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                request_fingerprint, created_at, updated_at, fulfilment_status, refunded_amount)
            VALUES ($1, $2, 'paid', $3, 'JPY', 'pm_card_visa', $4, 'f', now(), now(), 'partially_shipped', $5)
            """, order, customer, Int64(quantity * 100), key, Int64(refunded * 100))
        try await TestRows.insertOrderLine(db, order: order, item: item, price: 100, quantity: quantity)
        try await db.pool.query(
            "UPDATE order_lines SET shipped_quantity = $2, refunded_quantity = $3, returned_quantity = $3 WHERE order_id = $1", order,
            shipped, refunded)
        try await db.pool.query(
            """
            INSERT INTO shipments (id, order_id, carrier, tracking_number, created_at, delivered_at)
            VALUES ($1, $2, 'Yamato', '1', now(), CASE WHEN $3 THEN now() END)
            """, UUID(), order, delivered)
        let refund = UUID()
        try await db.pool.query(
            """
            INSERT INTO refunds (id, order_id, amount, currency, reason, restock, idempotency_key, request_fingerprint, status,
                                 created_at, updated_at)
            VALUES ($1, $2, $3, 'JPY', 'other', true, $4, 'f', $5, now(), now())
            """, refund, order, Int64(refunded * 100), key, status)
        try await db.pool.query(
            "INSERT INTO refund_lines (refund_id, order_id, variant_id, quantity) SELECT $1, $2, variant_id, $3 FROM order_lines WHERE order_id = $2",
            refund, order, refunded)
        return order
    }

    @Test func staffRestocksAreWithdrawnReturnsAreNotAndStuckOrdersMoveOn() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let migrations = try Migration.load(from: repositoryRoot.appendingPathComponent("Migrations"))
            try await Migrator(pool: db.pool).migrate(migrations.filter { $0.version < Self.version })
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'c@example.com', 'C', 'x')", customer)
            let item = try await TestRows.insertItem(db, stock: 10)
            // 1 of 3 shipped and delivered, the other 2 refunded with restock: stuck before.
            let stuck = try await Self.order(
                db, customer: customer, item: item, quantity: 3, shipped: 1, refunded: 2, key: "staff-1", status: "succeeded",
                delivered: true)
            // 1 of 2 shipped and returned (the return's refund): the other still ships.
            let returned = try await Self.order(
                db, customer: customer, item: item, quantity: 2, shipped: 1, refunded: 1, key: "return-\(UUID())",
                status: "succeeded", delivered: true)
            // 1 of 3 shipped, 1 in a staff refund not settled yet: it holds its share.
            let pending = try await Self.order(
                db, customer: customer, item: item, quantity: 3, shipped: 1, refunded: 1, key: "staff-2", status: "pending",
                delivered: false)

            try await Migrator(pool: db.pool).migrate(migrations)
            func withdrawn(_ order: UUID) async throws -> Int {
                try await db.pool.query("SELECT withdrawn_quantity FROM order_lines WHERE order_id = $1", order).rows[0].decode(
                    "withdrawn_quantity")
            }
            func fulfilment(_ order: UUID) async throws -> String {
                try await db.pool.query("SELECT fulfilment_status FROM orders WHERE id = $1", order).rows[0].decode("fulfilment_status")
            }
            #expect(try await withdrawn(stuck) == 2)
            #expect(try await fulfilment(stuck) == "delivered", "nothing was left to ship and its shipment is delivered")
            #expect(try await withdrawn(returned) == 0)
            #expect(try await fulfilment(returned) == "partially_shipped", "its second unit still ships")
            #expect(try await withdrawn(pending) == 1)
            let share: Int = try await db.pool.query("SELECT withdrawn FROM refund_lines WHERE order_id = $1", pending).rows[0].decode(
                "withdrawn")
            #expect(share == 1, "given back if the refund fails")
            #expect(try await fulfilment(pending) == "partially_shipped")
        }
    }
}
