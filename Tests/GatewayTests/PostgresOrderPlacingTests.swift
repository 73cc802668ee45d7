import Domain
import Foundation
import Postgres
import TestSupport
import Testing

@testable import Gateway

/// Placing an order reads the cart's variants and items before it locks a variant
/// (`PostgresOrderStore+Placing`): what the staff change in between (a price, a SKU, the variant's
/// options, a name, a tax class) must not be sold as it was. Each test stops the checkout between its cart read and its
/// reservation (it waits for a lock on `shipping_methods`, which it reads in between), changes the
/// variant or its item, and lets it go on, on real PostgreSQL: the run that sells has read the
/// change.
@Suite("Placing an order on real PostgreSQL")
struct PostgresOrderPlacingTests {
    /// A change made after the cart was read, and what the order must then say.
    struct Change: Sendable {
        let sql: String
        let check: @Sendable (Order) -> Bool
        let testDescription: String
    }

    static let changes: [Change] = [
        Change(
            sql: "UPDATE item_variants SET price_amount = 250 WHERE id = $1",
            check: { $0.total.amount == 750 && $0.lines.map(\.unitPrice.amount) == [250] }, testDescription: "price"),
        Change(
            sql: "UPDATE item_variants SET sku = 'V-NEW' WHERE id = $1", check: { $0.lines.map(\.sku) == ["V-NEW"] }, testDescription: "SKU"
        ),
        Change(
            sql: #"UPDATE item_variants SET options = '{"size": "L"}' WHERE id = $1"#,
            check: { $0.lines.map(\.options) == [[VariantOption(name: "size", value: "L")]] }, testDescription: "variant's options"),
        Change(
            sql: "UPDATE items SET name = 'Renamed' WHERE id = (SELECT item_id FROM item_variants WHERE id = $1)",
            check: { $0.lines.map(\.name) == ["Renamed"] }, testDescription: "item name"),
        Change(
            sql: "UPDATE items SET tax_class = 'reduced' WHERE id = (SELECT item_id FROM item_variants WHERE id = $1)",
            check: { $0.lines.map(\.taxClass) == [TaxClass.reduced] && $0.taxLines.map(\.taxClass) == [TaxClass.reduced] },
            testDescription: "tax class"),
    ]

    /// One database for every change, one after the other: the suite's databases are copied
    /// through a few connections, and each more delays every test waiting for its own.
    @Test func aChangeAfterTheCartWasReadIsWhatIsSold() async throws {
        try await TestDatabase.with { db in
            for (index, change) in Self.changes.enumerated() {
                try await Self.check(change, index: index, db: db)
            }
        }
    }

    private static func check(_ change: Change, index: Int, db: TestDatabase) async throws {
        let yen = Currency("JPY")!
        let customer = UUID()
        let variant = UUID()
        try await db.pool.query(
            "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'P', 'h')", customer, "placing-\(index)@example.com")
        _ = try await PostgresItemStore(database: db.pool).create(
            id: UUID(),
            draft: ItemDraft(
                sku: "ITEM-\(index)", name: "Item", description: "", category: "c",
                options: [ItemOption(name: "size", values: ["S", "L"])],
                variants: [
                    VariantDraft(
                        id: variant, sku: "V-\(index)", options: [VariantOption(name: "size", value: "S")],
                        price: Money(amount: 100, currency: yen), stock: 10)
                ]),
            createdAt: Date())
        try await db.pool.query("INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, 3)", customer, variant)
        let store = PostgresOrderStore(database: db.pool, currency: yen)
        let request = CheckoutRequest(
            customerID: customer, paymentMethod: "pm_card_visa", idempotencyKey: "changed",
            minimumCharge: Money(amount: 1, currency: Currency("JPY")!))

        let placed = try await db.pool.withTransaction { holder in
            try await holder.query("LOCK TABLE shipping_methods IN ACCESS EXCLUSIVE MODE")
            let checkout = Task { try await store.placeOrder(id: UUID(), request: request, at: Date()) }
            try await db.waitForLockWaiters()
            try await db.pool.query(change.sql, variant)
            return checkout
        }
        let (order, created) = try await placed.value
        #expect(created, "\(change.testDescription)")
        #expect(change.check(order), "\(change.testDescription): \(order.lines) \(order.total)")
        let stock: Int = try await db.pool.query("SELECT stock FROM item_variants WHERE id = $1", variant).rows[0].decode("stock")
        #expect(stock == 7, "\(change.testDescription): reserved once, by the run that read the change")
        let movements: Int = try await db.pool.query(
            "SELECT count(*)::integer AS n FROM stock_movements WHERE variant_id = $1 AND reason = 'ordered'", variant
        ).rows[0].decode("n")
        #expect(movements == 1, "\(change.testDescription)")
    }

    /// An item archived after the checkout read the cart, before its reservation: nothing sells
    /// (the reservation's next statement reads the archive), no stock moves, no order is left.
    @Test func anItemArchivedAfterTheCartWasReadIsNotSold() async throws {
        try await TestDatabase.with { db in
            let yen = Currency("JPY")!
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'archived@example.com', 'P', 'h')", customer)
            let item = try await TestRows.insertItem(db, stock: 10)
            let variant = try await TestRows.variantID(of: item, db)
            try await db.pool.query("INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, 3)", customer, variant)
            let store = PostgresOrderStore(database: db.pool, currency: yen)
            let request = CheckoutRequest(
                customerID: customer, paymentMethod: "pm_card_visa", idempotencyKey: "archived",
                minimumCharge: Money(amount: 1, currency: yen))
            let placed = try await db.pool.withTransaction { holder in
                try await holder.query("LOCK TABLE shipping_methods IN ACCESS EXCLUSIVE MODE")
                let checkout = Task { try await store.placeOrder(id: UUID(), request: request, at: Date()) }
                try await db.waitForLockWaiters()
                #expect(try await PostgresItemStore(database: db.pool).archive(itemID: item, at: Date())?.archivedAt != nil)
                return checkout
            }
            let refused = await #expect(throws: OrderError.self) { try await placed.value }
            #expect(
                refused
                    == .insufficientStock([
                        InsufficientLine(line: CartLineKey(itemID: item, variantID: variant), requested: 3, available: 0)
                    ]))
            #expect(try await TestRows.stock(db, item: item) == 10)
            let orders: Int = try await db.pool.query("SELECT count(*)::int AS n FROM orders").rows[0].decode("n")
            #expect(orders == 0)
        }
    }
}
