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
            priceAmount: Int64(100 * n), currency: "JPY", stock: n)
    }

    @discardableResult
    func insert(_ store: PostgresItemStore, _ n: Int, name: String? = nil, category: String = "kitchen", at: Date? = nil) async throws
        -> Item
    {
        try await store.create(
            id: UUID(), draft: draft(n, name: name, category: category),
            price: Money(amount: Int64(100 * n), currency: Self.yen),
            createdAt: at ?? Self.start.addingTimeInterval(Double(n)))
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
                try await store.update(id: item.id, changes: ItemChanges(stock: -1))
            }
        }
    }

    @Test func pagesAreStableWhenItemsAreInsertedBetweenRequests() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            for n in 1...10 { try await insert(store, n) }
            let first = try await store.items(matching: ItemFilter(), after: nil, limit: 4)
            #expect(first.map(\.sku) == ["SKU-10", "SKU-9", "SKU-8", "SKU-7"])
            // Newer items arrive while the client is on page one.
            for n in 11...15 { try await insert(store, n) }
            let last = first.last!
            let second = try await store.items(matching: ItemFilter(), after: PageCursor(createdAt: last.createdAt, id: last.id), limit: 4)
            #expect(second.map(\.sku) == ["SKU-6", "SKU-5", "SKU-4", "SKU-3"])
        }
    }

    @Test func equalTimestampsAreOrderedByIDWithoutSkips() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            for n in 1...7 { try await insert(store, n, at: Self.start) }
            var seen: [String] = []
            var cursor: PageCursor?
            repeat {
                let page = try await store.items(matching: ItemFilter(), after: cursor, limit: 3)
                seen += page.map(\.sku)
                cursor = page.count == 3 ? PageCursor(createdAt: page.last!.createdAt, id: page.last!.id) : nil
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
            func search(_ text: String) async throws -> Set<String> {
                Set(try await store.items(matching: ItemFilter(search: text), after: nil, limit: 10).map(\.name))
            }
            #expect(try await search("mug") == ["Oak Mug", "Blue Mug"])
            #expect(try await search("mug oak") == ["Oak Mug"])
            #expect(try await search("%") == ["100% Cotton"])
            #expect(try await search("_") == [])
        }
    }

    @Test func categoryFilterAndSearchIndex() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            try await insert(store, 1, category: "books")
            try await insert(store, 2, category: "toys")
            let books = try await store.items(matching: ItemFilter(category: "books"), after: nil, limit: 10)
            #expect(books.map(\.sku) == ["SKU-1"])
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
            try await db.pool.query("UPDATE items SET stock = stock - 1 WHERE id = $1", item.id)
            let renamed = try #require(try await store.update(id: item.id, changes: ItemChanges(name: "Renamed", priceAmount: 999)))
            #expect(renamed.name == "Renamed" && renamed.price.amount == 999 && renamed.stock == 2)
            #expect(try await store.update(id: UUID(), changes: ItemChanges(name: "x")) == nil)
        }
    }

    @Test func insertIfEmptyInsertsOnceEvenWhenRacing() async throws {
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            let items = (1...50).map { n in
                Item(
                    id: UUID(), sku: "S-\(n)", name: "n\(n)", description: "", category: "c",
                    price: Money(amount: 1, currency: Self.yen), stock: 1, createdAt: Self.start, reviewCount: 0, ratingAverage: nil)
            }
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<3 { group.addTask { try await store.insertIfEmpty(items) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)
            let count: Int = try await db.pool.query("SELECT count(*)::int AS n FROM items").rows[0].decode("n")
            #expect(count == 50)
        }
    }

    @Test func unreachableDatabaseIsStoreUnavailable() async throws {
        let pool = PostgresPool(.init(connection: .init(conninfo: "postgresql://storefront@127.0.0.1:\(freePort())/x")))
        await #expect(throws: StoreUnavailable.self) { try await PostgresItemStore(database: pool).item(id: UUID()) }
    }
}
