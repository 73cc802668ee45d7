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
            let yen = Currency("JPY")!
            let small = VariantDraft(
                id: UUID(), sku: "MUG-S", options: [.init(name: "size", value: "S")], price: Money(amount: 1200, currency: yen), stock: 9)
            let large = VariantDraft(
                id: UUID(), sku: "MUG-L", options: [.init(name: "size", value: "L")], price: Money(amount: 1500, currency: yen), stock: 9)
            let item = try await PostgresItemStore(database: db.pool).create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "MUG", name: "Mug", description: "", category: "kitchen", options: [ItemOption(name: "size", values: ["S", "L"])],
                    variants: [small, large]),
                createdAt: Date())
            let store = PostgresCartStore(database: db.pool)
            try await store.setQuantity(customerID: alice, variantID: small.id, quantity: 2)
            try await store.setQuantity(customerID: alice, variantID: small.id, quantity: 4)
            try await store.setQuantity(customerID: alice, variantID: large.id, quantity: 1)
            try await db.pool.query("UPDATE item_variants SET price_amount = 999 WHERE id = $1", small.id)
            let lines = try await store.lines(customerID: alice)
            #expect(
                lines == [
                    CartLine(
                        itemID: item.id, variantID: small.id, sku: "MUG-S", name: "Mug", options: small.options,
                        unitPrice: Money(amount: 999, currency: yen), quantity: 4),
                    CartLine(
                        itemID: item.id, variantID: large.id, sku: "MUG-L", name: "Mug", options: large.options,
                        unitPrice: Money(amount: 1500, currency: yen), quantity: 1),
                ])
            #expect(try await store.lines(customerID: bob).isEmpty)
            try await store.remove(customerID: bob, itemID: item.id)
            #expect(try await store.lines(customerID: alice).count == 2)
            try await store.remove(customerID: alice, variantID: large.id)
            #expect(try await store.lines(customerID: alice).map(\.variantID) == [small.id])
            try await store.setQuantity(customerID: alice, variantID: large.id, quantity: 1)
            try await store.remove(customerID: alice, itemID: item.id)
            #expect(try await store.lines(customerID: alice).isEmpty, "removing the item removes every variant's line")
            await #expect(throws: PostgresError.self) { try await store.setQuantity(customerID: alice, variantID: small.id, quantity: 100) }
        }
    }

    /// A cart holds `Cart.maxLines` lines: past them a new line is refused, also when a customer's
    /// requests race for the last places (the trigger locks the customer's row before it counts),
    /// while a line already held can still change.
    @Test func aCartHoldsAtMostMaxLinesEvenWhenRequestsRace() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'full@example.com', 'N', 'h')", customer)
            var variants: [UUID] = []
            for _ in 0..<(Cart.maxLines + 10) {
                variants.append(try await TestRows.variantID(of: try await TestRows.insertItem(db, stock: 5), db))
            }
            let store = PostgresCartStore(database: db.pool)
            for variant in variants.prefix(Cart.maxLines - 2) {
                try await store.setQuantity(customerID: customer, variantID: variant, quantity: 1)
            }
            let added = try await withThrowingTaskGroup(of: Bool.self) { group in
                for variant in variants.dropFirst(Cart.maxLines - 2) {
                    group.addTask {
                        do {
                            try await store.setQuantity(customerID: customer, variantID: variant, quantity: 1)
                            return true
                        } catch is CartFull {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(added == 2, "12 new lines raced for the last 2 places")
            #expect(try await store.lines(customerID: customer).count == Cart.maxLines)
            try await store.setQuantity(customerID: customer, variantID: variants[0], quantity: 3)
            #expect(try await store.lines(customerID: customer).first { $0.variantID == variants[0] }?.quantity == 3)
            try await store.remove(customerID: customer, variantID: variants[0])
            try await store.setQuantity(customerID: customer, variantID: variants[0], quantity: 1)
            #expect(try await store.lines(customerID: customer).count == Cart.maxLines)

            // A cart that held more lines before the bound (added with the trigger off) keeps
            // changing its lines, and takes no new one.
            try await db.pool.query("ALTER TABLE cart_lines DISABLE TRIGGER cart_line_checks")
            let held = Set(try await store.lines(customerID: customer).map(\.variantID))
            let extra = variants.filter { !held.contains($0) }
            for variant in extra.prefix(4) { try await store.setQuantity(customerID: customer, variantID: variant, quantity: 1) }
            try await db.pool.query("ALTER TABLE cart_lines ENABLE TRIGGER cart_line_checks")
            try await store.setQuantity(customerID: customer, variantID: extra[0], quantity: 4)
            await #expect(throws: CartFull.self) { try await store.setQuantity(customerID: customer, variantID: extra[4], quantity: 1) }
        }
    }

    /// A line added while the staff remove its variant does not outlive the removal, whichever
    /// comes first (the removal locks the item FOR UPDATE; the trigger of Migrations/0038 takes
    /// its key share): one written first is waited for and deleted by the removal; one written
    /// while the removal runs waits for it and is refused, as is one written after.
    @Test func aLineRacingItsVariantsRemovalDoesNotOutliveIt() async throws {
        try await TestDatabase.with { db in
            let alice = UUID()
            let bob = UUID()
            for customer in [alice, bob] {
                try await db.pool.query(
                    "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", customer, "\(customer)@example.com")
            }
            let yen = Currency("JPY")!
            let variants = ["S", "M", "L"].map { size in
                VariantDraft(
                    id: UUID(), sku: "CAP-\(size)", options: [.init(name: "size", value: size)], price: Money(amount: 900, currency: yen),
                    stock: 9)
            }
            let items = PostgresItemStore(database: db.pool)
            _ = try await items.create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "CAP", name: "Cap", description: "", category: "hats",
                    options: [ItemOption(name: "size", values: ["S", "M", "L"])],
                    variants: variants),
                createdAt: Date())
            let store = PostgresCartStore(database: db.pool)

            let removal = try await db.pool.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, 1)", alice, variants[0].id)
                let removal = Task { try await items.removeVariant(id: variants[0].id, at: Date()) }
                try await db.waitForLockWaiters()
                return removal
            }
            #expect(try await removal.value != nil)
            #expect(try await store.lines(customerID: alice).isEmpty, "the removal waited for the line, then deleted it")
            await #expect(throws: VariantOffSale.self) {
                try await store.setQuantity(customerID: bob, variantID: variants[0].id, quantity: 1)
            }

            // The removal is held past its lock of the item (at its update of the variant, whose
            // row this transaction holds) while a line is added: the line waits on the item.
            let (second, adding) = try await db.pool.withTransaction { connection in
                try await connection.query("SELECT 1 FROM item_variants WHERE id = $1 FOR NO KEY UPDATE", variants[1].id)
                let removal = Task { try await items.removeVariant(id: variants[1].id, at: Date()) }
                try await db.waitForLockWaiters(1)
                let adding = Task { try await store.setQuantity(customerID: bob, variantID: variants[1].id, quantity: 1) }
                try await db.waitForLockWaiters(2)
                return (removal, adding)
            }
            #expect(try await second.value != nil)
            await #expect(throws: VariantOffSale.self) { try await adding.value }
            #expect(try await store.lines(customerID: bob).isEmpty)
            try await store.setQuantity(customerID: bob, variantID: variants[2].id, quantity: 1)
            #expect(try await store.lines(customerID: bob).map(\.variantID) == [variants[2].id])
        }
    }

    /// The same for an item's archive: a line written first is waited for and deleted, one
    /// written while the archive runs waits for it and is refused.
    @Test func aLineRacingItsItemsArchiveDoesNotOutliveIt() async throws {
        try await TestDatabase.with { db in
            let (alice, bob) = (UUID(), UUID())
            for customer in [alice, bob] {
                try await db.pool.query(
                    "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", customer, "\(customer)@example.com")
            }
            let item = try await TestRows.insertItem(db, stock: 5)
            let variant = try await TestRows.variantID(of: item, db)
            let items = PostgresItemStore(database: db.pool)
            let store = PostgresCartStore(database: db.pool)

            let archive = try await db.pool.withTransaction { connection in
                try await connection.query(
                    "INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, 1)", alice, variant)
                let archive = Task { try await items.archive(itemID: item, at: Date()) }
                try await db.waitForLockWaiters()
                return archive
            }
            #expect(try await archive.value?.archivedAt != nil)
            #expect(try await store.lines(customerID: alice).isEmpty, "the archive waited for the line, then deleted it")
            await #expect(throws: VariantOffSale.self) { try await store.setQuantity(customerID: bob, variantID: variant, quantity: 1) }

            // The archive is held past its lock of the item (at its delete of a line this
            // transaction holds) while a line is added: the line waits on the item.
            #expect(try await items.archive(itemID: item, at: nil)?.archivedAt == nil)
            try await store.setQuantity(customerID: alice, variantID: variant, quantity: 1)
            let (second, adding) = try await db.pool.withTransaction { connection in
                try await connection.query("SELECT 1 FROM cart_lines WHERE customer_id = $1 FOR UPDATE", alice)
                let archive = Task { try await items.archive(itemID: item, at: Date()) }
                try await db.waitForLockWaiters(1)
                let adding = Task { try await store.setQuantity(customerID: bob, variantID: variant, quantity: 1) }
                try await db.waitForLockWaiters(2)
                return (archive, adding)
            }
            #expect(try await second.value?.archivedAt != nil)
            await #expect(throws: VariantOffSale.self) { try await adding.value }
            #expect(try await store.lines(customerID: alice).isEmpty)
            #expect(try await store.lines(customerID: bob).isEmpty)
        }
    }
}
