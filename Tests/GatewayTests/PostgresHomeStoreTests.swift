import Domain
import Foundation
import Postgres
import TestSupport
import Testing

@testable import Gateway

/// The home feed's queries on real PostgreSQL: right answers, and plans that use indexes on a
/// catalog large enough for the planner to prefer them over a scan.
@Suite("PostgresHomeStore on real PostgreSQL")
struct PostgresHomeStoreTests {
    /// `count` items in 8 categories, created a second apart, newest last.
    static func seed(_ db: TestDatabase, count: Int) async throws {
        try await db.pool.query(
            """
            INSERT INTO items (id, sku, name, category, price_amount, price_currency, created_at)
            SELECT gen_random_uuid(), 'SKU-' || n, 'Item ' || n, 'category-' || (n % 8), 100, 'JPY',
                   timestamptz '2026-01-01' + n * interval '1 second'
            FROM generate_series(1, $1::int) AS n
            """, count)
        try await TestRows.addVariants(db)
    }

    /// Gives item `sku` reviews worth `ratings` straight in the columns the reviews keep.
    static func rate(_ db: TestDatabase, sku: String, _ ratings: [Int]) async throws {
        try await db.pool.query(
            "UPDATE items SET review_count = $2, rating_sum = $3 WHERE sku = $1", sku, ratings.count, ratings.reduce(0, +))
    }

    @Test func answersNewestBestRatedAndCategoryCounts() async throws {
        try await TestDatabase.with { db in
            try await Self.seed(db, count: 40)
            try await Self.rate(db, sku: "SKU-3", [5, 4])
            try await Self.rate(db, sku: "SKU-9", [5, 5, 4])
            try await Self.rate(db, sku: "SKU-12", [5])
            let store = PostgresHomeStore(database: db.pool)
            #expect(try await store.newArrivals(limit: 3).map(\.sku) == ["SKU-40", "SKU-39", "SKU-38"])
            let top = try await store.topRated(limit: 10)
            // Weighed toward three stars by five reviews' worth: one 5-star review ranks below
            // three that average 4.67 and two that average 4.5.
            #expect(top.map(\.sku) == ["SKU-9", "SKU-3", "SKU-12"])
            #expect(top.map(\.ratingAverage) == [4.67, 4.5, 5.0] && top.map(\.reviewCount) == [3, 2, 1])
            try await Self.rate(db, sku: "SKU-15", Array(repeating: 5, count: 25) + Array(repeating: 4, count: 25))
            #expect(try await store.topRated(limit: 1).map(\.sku) == ["SKU-15"], "fifty reviews averaging 4.5 come first")
            // Ties rank as the catalog sorted by rating ranks them: the feed is that list's first page.
            try await Self.rate(db, sku: "SKU-20", [4, 5])
            try await Self.rate(db, sku: "SKU-30", [5, 4, 5, 4])
            let catalog = try await PostgresItemStore(database: db.pool).items(matching: ItemFilter(), sort: .rating, after: nil, limit: 6)
            let tied = try await store.topRated(limit: 10)
            #expect(tied.count == 6 && tied.map(\.id) == catalog.map(\.item.id), "\(tied.map(\.sku)) \(catalog.map(\.item.sku))")
            let categories = try await store.categories(limit: 50)
            #expect(categories.count == 8 && categories.allSatisfy { $0.itemCount == 5 })
            #expect(categories.first?.name == "category-0")
            // The counts follow inserts, moves between categories and deletes (a trigger keeps them).
            try await db.pool.query("UPDATE items SET category = 'category-1' WHERE sku IN ('SKU-8', 'SKU-16')")
            try await db.pool.query("DELETE FROM items WHERE sku = 'SKU-1'")
            let moved = Dictionary(uniqueKeysWithValues: try await store.categories(limit: 50).map { ($0.name, $0.itemCount) })
            #expect(moved["category-0"] == 3 && moved["category-1"] == 6)
        }
    }

    @Test func everyQueryIsAnsweredByAnIndex() async throws {
        try await TestDatabase.with { db in
            try await Self.seed(db, count: 20_000)
            try await db.pool.query(
                "UPDATE items SET review_count = 1 + n % 7, rating_sum = 1 + n % 7 + n % 3 FROM (SELECT id AS i, row_number() OVER () AS n FROM items) r WHERE id = r.i AND n % 10 = 0"
            )
            try await db.pool.query("ANALYZE items")
            func plan(_ sql: String, _ limit: Int) async throws -> String {
                try await db.pool.query("EXPLAIN " + sql, limit).rows.map { try $0.decode("QUERY PLAN", as: String.self) }.joined(
                    separator: "\n")
            }
            let newArrivals = try await plan(PostgresHomeStore.newArrivals, 10)
            #expect(newArrivals.contains("Index Scan using items_created_at_id_idx") && !newArrivals.contains("Seq Scan"), "\(newArrivals)")
            let topRated = try await plan(PostgresHomeStore.topRated, 10)
            #expect(topRated.contains("Index Scan Backward using items_rating_key_id_idx") && !topRated.contains("Seq Scan"), "\(topRated)")
            // Categories are read from their own few rows, never by counting the catalog.
            let categories = try await plan(PostgresHomeStore.categories, 50)
            #expect(categories.contains("category_counts") && !categories.contains("items"), "\(categories)")
        }
    }
}
