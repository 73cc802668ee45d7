import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

@Suite("PostgresCartStore on real PostgreSQL")
struct PostgresCartStoreTests {
    @Test func upsertsJoinsCurrentPricesAndScopesByCustomer() async throws {
        try await TestDatabase.with { db in
            let alice = UUID()
            let bob = UUID()
            for customer in [alice, bob] {
                try await db.pool.query(
                    "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", customer, "\(customer)@example.com")
            }
            let item = try await PostgresItemStore(database: db.pool).create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "MUG", name: "Mug", description: "", category: "kitchen", priceAmount: 1200, currency: "JPY", stock: 9),
                price: Money(amount: 1200, currency: Currency("JPY")!), createdAt: Date())
            let store = PostgresCartStore(database: db.pool)
            try await store.setQuantity(customerID: alice, itemID: item.id, quantity: 2)
            try await store.setQuantity(customerID: alice, itemID: item.id, quantity: 4)
            try await db.pool.query("UPDATE items SET price_amount = 999 WHERE id = $1", item.id)
            let lines = try await store.lines(customerID: alice)
            #expect(
                lines == [CartLine(itemID: item.id, name: "Mug", unitPrice: Money(amount: 999, currency: Currency("JPY")!), quantity: 4)])
            #expect(try await store.lines(customerID: bob).isEmpty)
            try await store.remove(customerID: bob, itemID: item.id)
            #expect(try await store.lines(customerID: alice).count == 1)
            try await store.remove(customerID: alice, itemID: item.id)
            #expect(try await store.lines(customerID: alice).isEmpty)
            await #expect(throws: PostgresError.self) { try await store.setQuantity(customerID: alice, itemID: item.id, quantity: 100) }
        }
    }
}
