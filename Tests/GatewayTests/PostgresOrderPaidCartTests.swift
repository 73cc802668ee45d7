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
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'paid@example.com', 'P', 'h')", customer)
            let yen = Currency("JPY")!
            let variants = (0..<3).map { index in
                VariantDraft(
                    id: UUID(), sku: "V\(index)", options: [.init(name: "n", value: "\(index)")], price: Money(amount: 100, currency: yen),
                    stock: 10)
            }
            _ = try await PostgresItemStore(database: db.pool).create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "ITEM", name: "Item", description: "", category: "c",
                    options: [ItemOption(name: "n", values: ["0", "1", "2"])], variants: variants),
                createdAt: Date())
            let order = UUID()
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                    request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'pending_payment', 500, 'JPY', 'pm_card_visa', 'k', 'f', now(), now())
                """, order, customer)
            // Bought: 2 of the first, 3 of the second; the cart now holds 5, 3 and 1 of the three.
            for (variant, bought) in [(variants[0], 2), (variants[1], 3)] {
                try await db.pool.query(
                    """
                    INSERT INTO order_lines (order_id, variant_id, item_id, sku, options, name, unit_price_amount, unit_price_currency,
                                             quantity, tax_class)
                    SELECT $1, v.id, v.item_id, v.sku, '[]'::jsonb, 'Item', 100, 'JPY', $3, 'standard' FROM item_variants v WHERE v.id = $2
                    """, order, variant.id, bought)
            }
            for (variant, carted) in [(variants[0], 5), (variants[1], 3), (variants[2], 1)] {
                try await db.pool.query(
                    "INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, $3)", customer, variant.id, carted)
            }
            _ = try await PostgresOrderStore(database: db.pool, currency: yen).markPaid(orderID: order, at: Date())
            let cart = try await db.pool.query("SELECT variant_id, quantity FROM cart_lines WHERE customer_id = $1", customer).rows
            let left = Dictionary(
                uniqueKeysWithValues: try cart.map { (try $0.decode("variant_id") as UUID, try $0.decode("quantity") as Int) })
            #expect(left == [variants[0].id: 3, variants[2].id: 1])
        }
    }
}
