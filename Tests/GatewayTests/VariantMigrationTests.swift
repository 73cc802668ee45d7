import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing
import UseCase

/// Migrations/0014_variants.sql on a copy of the seeded catalog as it was before variants, with
/// carts, orders and a refund naming its items: every item becomes an item with one variant and
/// nothing is lost.
@Suite("The migration to variants on real PostgreSQL")
struct VariantMigrationTests {
    static let variantsVersion = 14

    @Test func everyItemBecomesAnItemWithOneVariantAndNothingIsLost() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let migrations = try Migration.load(from: repositoryRoot.appendingPathComponent("Migrations"))
            try await Migrator(pool: db.pool).migrate(migrations.filter { $0.version < Self.variantsVersion })
            let catalog = DemoCatalog.items(count: 300, currency: Currency("JPY")!)
            for item in catalog {
                try await db.pool.query(
                    """
                    INSERT INTO items (id, sku, name, description, category, price_amount, price_currency, stock, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                    """, item.id, item.sku, item.name, item.description, item.category, item.price.amount, item.price.currency.code,
                    item.stock, item.createdAt)
            }
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'c@example.com', 'C', 'x')", customer)
            let carted = try #require(catalog.first { $0.stock >= 2 })
            let ordered = try #require(catalog.last { $0.stock >= 3 })
            try await db.pool.query("INSERT INTO cart_lines (customer_id, item_id, quantity) VALUES ($1, $2, 2)", customer, carted.id)
            let order = UUID()
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                    request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'paid', $3, 'JPY', 'pm_card_visa', 'k', 'f', now(), now())
                """, order, customer, 3 * ordered.price.amount)
            try await db.pool.query(
                """
                INSERT INTO order_lines (order_id, item_id, name, unit_price_amount, unit_price_currency, quantity, returned_quantity)
                VALUES ($1, $2, $3, $4, 'JPY', 3, 1)
                """, order, ordered.id, ordered.name, ordered.price.amount)
            let refund = UUID()
            try await db.pool.query(
                """
                INSERT INTO refunds (id, order_id, amount, currency, reason, restock, idempotency_key, request_fingerprint, status,
                                     created_at, updated_at)
                VALUES ($1, $2, $3, 'JPY', 'other', true, 'r', 'f', 'succeeded', now(), now())
                """, refund, order, ordered.price.amount)
            try await db.pool.query(
                "INSERT INTO refund_lines (refund_id, order_id, item_id, quantity) VALUES ($1, $2, $3, 1)", refund, order, ordered.id)

            let applied = try await Migrator(pool: db.pool).migrate(migrations).map(\.version)
            #expect(applied.first == Self.variantsVersion && applied == migrations.map(\.version).filter { $0 >= Self.variantsVersion })

            // Each item reads back as it was, with one variant holding its SKU, price and stock.
            let store = PostgresItemStore(database: db.pool)
            for item in catalog {
                let read = try #require(try await store.item(id: item.id))
                #expect(read.sku == item.sku && read.name == item.name && read.price == item.price && read.stock == item.stock)
                #expect(read.options.isEmpty)
                #expect(
                    read.variants == [Variant(id: item.id, sku: item.sku, options: [], price: item.price, stock: item.stock)],
                    "the variant takes the item's id, so every reference stays right")
            }
            let movements: Int = try await db.pool.query(
                "SELECT count(*)::int AS n FROM stock_movements WHERE reason = 'migrated'"
            ).rows[0].decode("n")
            #expect(movements == catalog.count)

            // The cart, the order and the refund name the same things as before.
            let lines = try await PostgresCartStore(database: db.pool).lines(customerID: customer)
            #expect(lines.map(\.variantID) == [carted.id] && lines.map(\.itemID) == [carted.id] && lines.map(\.quantity) == [2])
            let orders = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            let kept = try #require(try await orders.order(id: order, customerID: customer))
            #expect(kept.lines.map(\.variantID) == [ordered.id] && kept.lines.map(\.sku) == [ordered.sku])
            #expect(kept.lines.map(\.quantity) == [3] && kept.refunds.map(\.id) == [refund])
            let refundLines: [UUID] = try await db.pool.query("SELECT variant_id FROM refund_lines WHERE refund_id = $1", refund).rows
                .map { try $0.decode("variant_id") }
            #expect(refundLines == [ordered.id])

            // And the migrated cart checks out against the migrated stock.
            let (placed, created) = try await orders.placeOrder(
                id: UUID(),
                request: CheckoutRequest(
                    customerID: customer, paymentMethod: "pm_card_visa", idempotencyKey: "after",
                    minimumCharge: Money(amount: 1, currency: Currency("JPY")!)),
                at: Date())
            #expect(created && placed.lines.map(\.variantID) == [carted.id])
            #expect(try await store.item(id: carted.id)?.stock == carted.stock - 2)
        }
    }
}
