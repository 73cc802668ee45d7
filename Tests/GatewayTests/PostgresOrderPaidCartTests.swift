import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A paid order takes what it bought out of the cart, and only that: a line the customer raised
/// while the payment waited on them (3-D Secure, the payment sheet) keeps the units beyond it.
/// The whole line used to go, 5 units for an order of 2.
@Suite("A paid order's cart on real PostgreSQL")
struct PostgresOrderPaidCartTests {
    @Test func onlyTheBoughtUnitsLeaveTheCart() async throws {
        try await TestDatabase.with { db in
            let customer = try await TestRows.insertCustomer(db)
            var items: [UUID] = []
            for _ in 0..<3 { items.append(try await TestRows.insertItem(db, stock: 10)) }
            let order = try await TestRows.insertOrder(db, customer: customer, status: "pending_payment", total: 500)
            // Bought: 2 of the first, 3 of the second; the cart now holds 5, 3 and 1 of the three.
            try await TestRows.insertOrderLine(db, order: order, item: items[0], price: 100, quantity: 2)
            try await TestRows.insertOrderLine(db, order: order, item: items[1], price: 100, quantity: 3)
            for (item, carted) in zip(items, [5, 3, 1]) {
                try await db.pool.query(
                    "INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, $3)", customer,
                    try await TestRows.variantID(of: item, db), carted)
            }
            _ = try await PostgresOrderStore(database: db.pool, currency: Currency("JPY")!).markPaid(orderID: order, at: Date())
            let cart = try await db.pool.query(
                "SELECT v.item_id, l.quantity FROM cart_lines l JOIN item_variants v ON v.id = l.variant_id WHERE l.customer_id = $1",
                customer
            ).rows
            let left = Dictionary(
                uniqueKeysWithValues: try cart.map { (try $0.decode("item_id") as UUID, try $0.decode("quantity") as Int) })
            #expect(left == [items[0]: 3, items[2]: 1])
        }
    }
}
