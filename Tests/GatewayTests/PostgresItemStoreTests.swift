import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

@Suite("PostgresItemStore on real PostgreSQL")
struct PostgresItemStoreTests {
    static let yen = Currency("JPY")!
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    func draft(_ n: Int, name: String? = nil, category: String = "kitchen") -> ItemDraft {
        ItemDraft(
            sku: "SKU-\(n)", name: name ?? "Item \(n)", description: "number \(n)", category: category,
            variants: [VariantDraft(id: UUID(), sku: "SKU-\(n)", price: Money(amount: Int64(100 * n), currency: Self.yen), stock: n)])
    }

    /// A T-shirt in two sizes and two colours, three of the four combinations made.
    func shirt(sku: String = "TEE") -> ItemDraft {
        let yen = { Money(amount: $0, currency: Self.yen) }
        return ItemDraft(
            sku: sku, name: "T-shirt", description: "", category: "apparel",
            options: [ItemOption(name: "size", values: ["S", "M"]), ItemOption(name: "colour", values: ["navy", "white"])],
            variants: [
                VariantDraft(
                    id: UUID(), sku: "\(sku)-S-NAVY", options: [.init(name: "size", value: "S"), .init(name: "colour", value: "navy")],
                    price: yen(2500), stock: 3),
                VariantDraft(
                    id: UUID(), sku: "\(sku)-M-NAVY", options: [.init(name: "size", value: "M"), .init(name: "colour", value: "navy")],
                    price: yen(2500), stock: 0),
                VariantDraft(
                    id: UUID(), sku: "\(sku)-M-WHITE", options: [.init(name: "size", value: "M"), .init(name: "colour", value: "white")],
                    price: yen(2300), stock: 4),
            ])
    }

    @discardableResult
    func insert(_ store: PostgresItemStore, _ n: Int, name: String? = nil, category: String = "kitchen", at: Date? = nil) async throws
        -> Item
    {
        try await store.create(
            id: UUID(), draft: draft(n, name: name, category: category), createdAt: at ?? Self.start.addingTimeInterval(Double(n)))
    }

    @Test func createsAndReadsBack() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let created = try await insert(store, 7)
            let read = try await store.item(id: created.id)
            #expect(read == created)
            #expect(try await store.item(id: UUID()) == nil)
        }
    }

    @Test func variantsAreReadBackInOrderWithTheirValuesLowestPriceAndStockSum() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let draft = shirt()
            let item = try await store.create(id: UUID(), draft: draft, createdAt: Self.start)
            #expect(item.options == draft.options)
            #expect(item.variants.map(\.id) == draft.variants.map(\.id))
            #expect(item.variants.map(\.options) == draft.variants.map(\.options), "values in the order of the item's options")
            #expect(item.price == Money(amount: 2300, currency: Self.yen) && item.stock == 7)
            #expect(try await store.item(variantID: draft.variants[2].id) == item)
            #expect(try await store.item(variantID: item.id) == nil, "an item's id is not a variant's")
            let movements: [Int] = try await db.pool.query(
                "SELECT delta FROM stock_movements m JOIN item_variants v ON v.id = m.variant_id WHERE v.item_id = $1 ORDER BY v.position",
                item.id
            ).rows.map { try $0.decode("delta") }
            #expect(movements == [3, 0, 4], "each variant's first stock is recorded")
        }
    }

    @Test func aVariantSKUTakenByAnotherItemIsADomainError() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            _ = try await store.create(id: UUID(), draft: shirt(), createdAt: Self.start)
            var clash = shirt(sku: "OTHER")
            clash.variants[1].sku = "TEE-M-NAVY"
            await #expect(throws: CatalogError.duplicateSKU("TEE-M-NAVY")) {
                try await store.create(id: UUID(), draft: clash, createdAt: Self.start)
            }
            #expect(
                try await store.items(matching: ItemFilter(), sort: .newest, after: nil, limit: 10).count == 1,
                "nothing of the refused item stays")
        }
    }

    @Test func priceAndStockOfAnItemWithSeveralVariantsAreRefused() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let item = try await store.create(id: UUID(), draft: shirt(), createdAt: Self.start)
            await #expect(throws: CatalogError.itemHasVariants(3)) {
                try await store.update(id: item.id, changes: ItemChanges(name: "Renamed", priceAmount: 1))
            }
            #expect(try await store.item(id: item.id) == item, "the refused change changed nothing")
        }
    }

    @Test func duplicateSKUBecomesADomainError() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            try await insert(store, 1)
            await #expect(throws: CatalogError.duplicateSKU("SKU-1")) { try await insert(store, 1) }
        }
    }

    @Test func databaseChecksRefuseWhatTheRulesForbid() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let item = try await insert(store, 1)
            await #expect(throws: PostgresError.self) {
                try await store.update(id: item.id, changes: ItemChanges(priceAmount: -1))
            }
            await #expect(throws: PostgresError.self) {
                try await db.pool.query("UPDATE item_variants SET stock = -1 WHERE item_id = $1", item.id)
            }
        }
    }

    @Test func pagesAreStableWhenItemsAreInsertedBetweenRequests() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            for n in 1...10 { try await insert(store, n) }
            let first = try await store.items(matching: ItemFilter(), sort: .newest, after: nil, limit: 4)
            #expect(first.map(\.item.sku) == ["SKU-10", "SKU-9", "SKU-8", "SKU-7"])
            // Newer items arrive while the client is on page one.
            for n in 11...15 { try await insert(store, n) }
            let second = try await store.items(matching: ItemFilter(), sort: .newest, after: first.last!.cursor, limit: 4)
            #expect(second.map(\.item.sku) == ["SKU-6", "SKU-5", "SKU-4", "SKU-3"])
        }
    }

    @Test func equalTimestampsAreOrderedByIDWithoutSkips() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            for n in 1...7 { try await insert(store, n, at: Self.start) }
            var seen: [String] = []
            var cursor: ItemCursor?
            repeat {
                let page = try await store.items(matching: ItemFilter(), sort: .newest, after: cursor, limit: 3)
                seen += page.map(\.item.sku)
                cursor = page.count == 3 ? page.last!.cursor : nil
            } while cursor != nil
            #expect(seen.count == 7 && Set(seen).count == 7)
        }
    }

    @Test func searchMatchesEveryWordAnywhereAndEscapesWildcards() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            try await insert(store, 1, name: "Oak Mug")
            try await insert(store, 2, name: "Oak Table")
            try await insert(store, 3, name: "Blue Mug")
            try await insert(store, 4, name: "100% Cotton")
            try await insert(store, 5, name: "Zqx Cafe\u{301} Mug")
            func search(_ text: String) async throws -> Set<String> {
                Set(try await store.items(matching: ItemFilter(search: text), sort: .newest, after: nil, limit: 10).map(\.item.name))
            }
            #expect(try await search("mug") == ["Oak Mug", "Blue Mug", "Zqx Cafe\u{301} Mug"])
            #expect(try await search("mug oak") == ["Oak Mug"])
            #expect(try await search("%") == ["100% Cotton"])
            #expect(try await search("_") == [])
            // A wildcard followed by a combining mark is one Swift Character but two scalars,
            // and PostgreSQL reads scalars: it was left a wildcard.
            #expect(try await search("Z%\u{301}") == [])
            #expect(try await search("Z_\u{301}") == [])
            #expect(try await search("cafe\u{301}") == ["Zqx Cafe\u{301} Mug"])
        }
    }

    @Test func categoryFilterAndSearchIndex() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            try await insert(store, 1, category: "books")
            try await insert(store, 2, category: "toys")
            let books = try await store.items(matching: ItemFilter(category: "books"), sort: .newest, after: nil, limit: 10)
            #expect(books.map(\.item.sku) == ["SKU-1"])
            let plan = try await db.pool.withConnection { connection in
                // On a tiny table the planner prefers other plans; forbid them to see that the
                // search predicate itself is indexable.
                try await connection.executeScript("SET enable_seqscan = off; SET enable_indexscan = off")
                return try await connection.query(
                    "EXPLAIN SELECT id FROM items WHERE (name || ' ' || description) ILIKE $1", "%mug%"
                ).rows.map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
            }
            #expect(plan.contains("items_search_trgm_idx"), "\(plan)")
        }
    }

    @Test func partialUpdateLeavesOtherFieldsAlone() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let item = try await insert(store, 3)
            // Someone else takes stock meanwhile; renaming must not write the old stock back.
            try await db.pool.query("UPDATE item_variants SET stock = stock - 1 WHERE item_id = $1", item.id)
            let renamed = try #require(try await store.update(id: item.id, changes: ItemChanges(name: "Renamed", priceAmount: 999)))
            #expect(renamed.name == "Renamed" && renamed.price.amount == 999 && renamed.stock == 2)
            #expect(renamed.variants.map(\.price.amount) == [999], "the one variant's price is the item's")
            #expect(try await store.update(id: UUID(), changes: ItemChanges(name: "x")) == nil)
        }
    }

    @Test func insertIfEmptyInsertsOnceEvenWhenRacing() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let items = (1...50).map { n in
                let price = Money(amount: 1, currency: Self.yen)
                return Item(
                    id: UUID(), sku: "S-\(n)", name: "n\(n)", description: "", category: "c", taxClass: .standard, price: price, stock: 1,
                    createdAt: Self.start, reviewCount: 0, ratingAverage: nil, options: [],
                    variants: [Variant(id: UUID(), sku: "S-\(n)", options: [], price: price, stock: 1)], images: [], thumbnailURL: nil,
                    archivedAt: nil)
            }
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<3 { group.addTask { try await store.insertIfEmpty(items) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)
            let count: Int = try await db.pool.query("SELECT count(*)::int AS n FROM items").rows[0].decode("n")
            #expect(count == 50)
            let variants: Int = try await db.pool.query("SELECT count(*)::int AS n FROM item_variants").rows[0].decode("n")
            #expect(variants == 50)
        }
    }

    @Test func unreachableDatabaseIsStoreUnavailable() async throws {
        let pool = PostgresPool(.init(connection: .init(conninfo: "postgresql://storefront@127.0.0.1:\(freePort())/x")))
        await #expect(throws: StoreUnavailable.self) { try await PostgresItemStore(database: pool).item(id: UUID()) }
    }
}
