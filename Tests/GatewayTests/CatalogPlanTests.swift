import Domain
import Foundation
import Postgres
import TestSupport
import Testing

@testable import Gateway

/// The plans of the catalog's statements at the issue's scale, 50,000 items and 200,000 variants:
/// every sorted page, overall or in a category, filtered by variant or not, walks its sort's
/// index (no scan of the items, no sort of them); the facets of a category read its rows by index.
@Suite("Catalog plans at 50,000 items")
struct CatalogPlanTests {
    /// 50,000 items in 8 categories, 4 variants each (size S/M/L/XL), prices and ratings spread,
    /// straight in the tables (the store's own seeding takes longer than a test should).
    static func seed(_ db: TestDatabase) async throws {
        try await db.pool.withConnection { connection in
            try await connection.executeScript(
                """
                INSERT INTO items (id, sku, name, description, category, price_amount, price_currency, options, created_at,
                                   review_count, rating_sum)
                SELECT gen_random_uuid(), 'P-' || n, 'Item ' || (n * 7919 % 50000), '', 'category-' || (n % 8), 100 * (n % 97), 'JPY',
                       '[{"name": "size", "values": ["S", "M", "L", "XL"]}]', timestamptz '2026-01-01' + n * interval '1 second',
                       n % 4, (n % 4) * (1 + n % 5)
                FROM generate_series(1, 50000) AS n;
                INSERT INTO item_variants (id, item_id, position, sku, options, price_amount, price_currency, stock)
                SELECT gen_random_uuid(), i.id, s.position, i.sku || '-' || s.size, jsonb_build_object('size', s.size),
                       i.price_amount + 100 * s.position, 'JPY', (s.position + length(i.sku)) % 3
                FROM items i CROSS JOIN (VALUES (0, 'S'), (1, 'M'), (2, 'L'), (3, 'XL')) AS s(position, size);
                """)
            // As autovacuum leaves a settled table: statistics, and the visibility map that lets
            // an index answer alone.
            try await connection.executeScript("VACUUM ANALYZE items")
            try await connection.executeScript("VACUUM ANALYZE item_variants")
        }
    }

    static func plan(_ db: TestDatabase, _ statement: (sql: String, binds: [any PostgresEncodable])) async throws -> String {
        try await db.pool.query("EXPLAIN " + statement.sql, binds: statement.binds).rows
            .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
    }

    /// One catalog for both checks: seeding it is most of the test's time.
    @Test func sortedPagesWalkTheirIndexAndFacetsReadByIndex() async throws {
        try await TestDatabase.with { db in
            try await Self.seed(db)
            try await Self.everySortedPageWalksItsIndex(db)
            try await Self.theFacetsOfACategoryReadItsRowsByIndex(db)
        }
    }

    static func everySortedPageWalksItsIndex(_ db: TestDatabase) async throws {
        let filters: [(String, ItemFilter)] = [
            ("all", ItemFilter()), ("category", ItemFilter(category: "category-3")),
            ("size and stock", ItemFilter(inStock: true, options: ["size": "XL"])),
            ("category, price and size", ItemFilter(category: "category-5", priceMin: 2000, priceMax: 6000, options: ["size": "M"])),
        ]
        for sort in ItemSort.allCases {
            for (label, filter) in filters {
                let cursor = ItemCursor(
                    sort: sort, key: sort == .newest ? .time(1_767_225_600_000_000) : sort == .name ? .text("Item 4") : .number(3000),
                    id: UUID())
                for after in [nil, cursor] {
                    let plan = try await Self.plan(
                        db, PostgresItemStore.listStatement(matching: filter, sort: sort, after: after, limit: 21))
                    let place = "\(sort) \(label)\(after == nil ? "" : " after a cursor")"
                    #expect(!plan.contains("Seq Scan on items"), "\(place):\n\(plan)")
                    #expect(!plan.contains("Sort  ("), "\(place): the index gives the order:\n\(plan)")
                    #expect(!plan.contains("Seq Scan on item_variants"), "\(place):\n\(plan)")
                }
            }
        }
    }

    static func theFacetsOfACategoryReadItsRowsByIndex(_ db: TestDatabase) async throws {
        for filter in [ItemFilter(category: "category-2"), ItemFilter(category: "category-2", inStock: true, options: ["size": "S"])] {
            let plan = try await Self.plan(db, PostgresItemStore.facetsStatement(matching: filter, bands: PriceBands.bounds))
            #expect(!plan.contains("Seq Scan on items"), "\(filter):\n\(plan)")
            #expect(!plan.contains("Seq Scan on item_variants"), "\(filter):\n\(plan)")
        }
    }
}
