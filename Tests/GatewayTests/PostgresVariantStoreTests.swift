import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

/// The variants of `PostgresItemStore`: added, changed, removed, their stock changed by deltas
/// and read back as history, with the races two staff members (or a checkout) could run.
@Suite("PostgresItemStore's variants on real PostgreSQL")
struct PostgresVariantStoreTests {
    static let yen = Currency("JPY")!

    static func shirt(_ store: PostgresItemStore, sku: String = "TEE", stock: Int = 5) async throws -> Item {
        let size = ItemOption(name: "size", values: ["S", "M"])
        return try await store.create(
            id: UUID(),
            draft: ItemDraft(
                sku: sku, name: "T-shirt", description: "", category: "apparel", options: [size],
                variants: ["S", "M"].map { value in
                    VariantDraft(
                        id: UUID(), sku: "\(sku)-\(value)", options: [VariantOption(name: "size", value: value)],
                        price: Money(amount: value == "S" ? 2500 : 2700, currency: yen), stock: stock)
                }),
            createdAt: Date())
    }

    @Test func aVariantWithANewValueExtendsItsOption() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let shirt = try await Self.shirt(store)
            let large = VariantDraft(
                id: UUID(), sku: "TEE-L", options: [VariantOption(name: "size", value: "L")],
                price: Money(amount: 2000, currency: Self.yen),
                stock: 2)
            let extended = [ItemOption(name: "size", values: ["S", "M", "L"])]
            let item = try #require(
                try await store.addVariant(large, to: shirt.id, expecting: shirt.options, options: extended, at: Date()))
            #expect(item.options == extended && item.variants.map(\.sku) == ["TEE-S", "TEE-M", "TEE-L"])
            #expect(item.price.amount == 2000, "the item's price is its lowest variant's")
            // The same values again, a SKU taken, or options that changed meanwhile: refused.
            var again = large
            again.id = UUID()
            again.sku = "TEE-L2"
            await #expect(throws: CatalogError.duplicateCombination) {
                try await store.addVariant(again, to: shirt.id, expecting: extended, options: extended, at: Date())
            }
            again.sku = "TEE-S"
            again.options = [VariantOption(name: "size", value: "XL")]
            let wider = [ItemOption(name: "size", values: ["S", "M", "L", "XL"])]
            await #expect(throws: CatalogError.duplicateSKU("TEE-S")) {
                try await store.addVariant(again, to: shirt.id, expecting: extended, options: wider, at: Date())
            }
            again.sku = "TEE-XL"
            await #expect(throws: CatalogError.itemChanged) {
                try await store.addVariant(again, to: shirt.id, expecting: shirt.options, options: wider, at: Date())
            }
            #expect(try await store.item(id: shirt.id)?.options == extended, "a refused variant changes nothing")
            #expect(try await store.addVariant(again, to: UUID(), expecting: [], options: [], at: Date()) == nil)
        }
    }

    @Test func aVariantIsRepricedRenamedAndRemovedButNeverTheLast() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let shirt = try await Self.shirt(store)
            let (small, medium) = (shirt.variants[0].id, shirt.variants[1].id)
            let repriced = try #require(try await store.updateVariant(id: medium, sku: "TEE-MED", priceAmount: 900))
            #expect(repriced.variants[1].sku == "TEE-MED" && repriced.price.amount == 900)
            await #expect(throws: CatalogError.duplicateSKU("TEE-S")) {
                try await store.updateVariant(id: medium, sku: "TEE-S", priceAmount: nil)
            }

            // A carted variant that is removed leaves the cart; its row stays for the history.
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'c@example.com', 'C', 'x')", customer)
            try await PostgresCartStore(database: db.pool).setQuantity(customerID: customer, variantID: medium, quantity: 1)
            let left = try #require(try await store.removeVariant(id: medium, at: Date()))
            #expect(left.variants.map(\.id) == [small] && left.price.amount == 2500)
            #expect(try await PostgresCartStore(database: db.pool).lines(customerID: customer).isEmpty)
            #expect(try await store.item(variantID: medium) == nil)
            #expect(try await store.removeVariant(id: medium, at: Date()) == nil, "a removed variant is gone")
            #expect(try await store.stockMovements(variantID: medium, before: nil, limit: 10)?.count == 1)
            await #expect(throws: CatalogError.lastVariant) { try await store.removeVariant(id: small, at: Date()) }

            // Its SKU and values are free again.
            let back = VariantDraft(
                id: UUID(), sku: "TEE-MED", options: [VariantOption(name: "size", value: "M")], price: Money(amount: 1, currency: Self.yen),
                stock: 0)
            #expect(try await store.addVariant(back, to: shirt.id, expecting: shirt.options, options: shirt.options, at: Date()) != nil)
        }
    }

    @Test func twoRemovalsOfTheLastTwoVariantsLeaveOne() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            for round in 0..<5 {
                let shirt = try await Self.shirt(store, sku: "TEE\(round)")
                let results = await withTaskGroup(of: Bool.self) { group in
                    for variant in shirt.variants {
                        group.addTask { (try? await store.removeVariant(id: variant.id, at: Date())) != nil }
                    }
                    return await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(results.filter { $0 }.count == 1)
                #expect(try await store.item(id: shirt.id)?.variants.count == 1)
            }
        }
    }

    @Test func concurrentDeltasNeverGoBelowZeroAndEachIsRecorded() async throws {
        try await TestDatabase.with(poolSize: 12) { db in
            let store = PostgresItemStore(database: db.pool)
            let shirt = try await Self.shirt(store, stock: 10)
            let small = shirt.variants[0].id
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            return try await store.adjustStock(variantID: small, delta: -1, reason: "damaged", at: Date()) == nil
                                ? "missing" : "moved"
                        } catch CatalogError.insufficientStock(let available) {
                            return "short \(available)"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "moved" }.count == 10, "\(outcomes)")
            #expect(outcomes.filter { $0 == "short 0" }.count == 10, "\(outcomes)")
            #expect(try await store.item(id: shirt.id)?.variants[0].stock == 0)

            let added = try #require(try await store.adjustStock(variantID: small, delta: 7, reason: "restock", at: Date()))
            #expect(added.delta == 7 && added.stockAfter == 7 && added.reason == "restock" && added.variantID == small)
            #expect(try await store.adjustStock(variantID: UUID(), delta: 1, reason: "x", at: Date()) == nil)

            // The history, newest first, a page at a time: each row's stock follows from the last.
            var history: [StockMovement] = []
            var before: Int64?
            while let page = try await store.stockMovements(variantID: small, before: before, limit: 4), !page.isEmpty {
                history += page
                before = page.last?.id
            }
            #expect(history.count == 12 && history.first == added && history.last?.reason == "created")
            for (newer, older) in zip(history, history.dropFirst()) {
                #expect(newer.stockAfter == older.stockAfter + newer.delta && newer.id > older.id)
            }
            #expect(try await store.stockMovements(variantID: UUID(), before: nil, limit: 4) == nil)
        }
    }

    /// Staff additions stop at `ItemRules.maxStock`; units coming back from orders may pass it, and
    /// taking stock away from a variant above it is never refused as "past the limit".
    @Test func additionsStopAtTheLimitAndRemovalsAboveItStillGo() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let shirt = try await Self.shirt(store, stock: 10)
            let small = shirt.variants[0].id
            await #expect(throws: CatalogError.stockLimit(available: 10)) {
                try await store.adjustStock(variantID: small, delta: ItemRules.maxStock, reason: "miscount", at: Date())
            }
            let full = try await store.adjustStock(variantID: small, delta: ItemRules.maxStock - 10, reason: "delivery", at: Date())
            #expect(full?.stockAfter == ItemRules.maxStock)
            // Returned units of a cancelled order, as the order store adds them.
            try await db.pool.query("UPDATE item_variants SET stock = stock + 5 WHERE id = $1", small)
            let taken = try await store.adjustStock(variantID: small, delta: -1, reason: "damaged", at: Date())
            #expect(taken?.stockAfter == ItemRules.maxStock + 4)
            await #expect(throws: CatalogError.stockLimit(available: ItemRules.maxStock + 4)) {
                try await store.adjustStock(variantID: small, delta: 1, reason: "found", at: Date())
            }
        }
    }
}
