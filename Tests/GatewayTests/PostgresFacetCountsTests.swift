import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A facet count reads every item its filter matches with their variants, so the store runs at
/// most its `catalogScans` at once and refuses one more at once (429 with Retry-After) instead
/// of queueing it for a pooled connection: a few anonymous clients asking for the facets of a
/// search over 50,000 items held every connection, and every other route answered 503.
@Suite("Facet counts and text searches bounded on real PostgreSQL")
struct PostgresFacetCountsTests {
    @Test func aCountPastTheBoundIsRefusedAndItsPlaceComesBack() async throws {
        try await TestDatabase.with { db throws in
            let counts = ConcurrencyLimit(maximum: 1)
            let store = PostgresItemStore(database: db.pool, catalogScans: counts)
            let filter = ItemFilter(category: nil, priceMin: nil, priceMax: nil, inStock: false, options: [:])
            #expect(try await store.facets(matching: filter, bands: [1000]).total == 0)
            #expect(counts.tryAcquire(), "the count gave its place back")
            let refused = await #expect(throws: TooManyRequests.self) { try await store.facets(matching: filter, bands: [1000]) }
            #expect(refused?.retryAfter == 1)
            counts.release()
            #expect(try await store.facets(matching: filter, bands: [1000]).total == 0)
        }
    }

    /// A text search reads every item until a page matches, so it takes the same places; a page
    /// without one reads an index and takes none.
    @Test func aTextSearchTakesAPlaceAndAPlainPageDoesNot() async throws {
        try await TestDatabase.with { db throws in
            let scans = ConcurrencyLimit(maximum: 1)
            let store = PostgresItemStore(database: db.pool, catalogScans: scans)
            var filter = ItemFilter(category: nil, priceMin: nil, priceMax: nil, inStock: false, options: [:])
            #expect(scans.tryAcquire())
            #expect(try await store.items(matching: filter, sort: .newest, after: nil, limit: 20).isEmpty)
            filter.search = "mug"
            let refused = await #expect(throws: TooManyRequests.self) {
                try await store.items(matching: filter, sort: .newest, after: nil, limit: 20)
            }
            #expect(refused?.retryAfter == 1)
            scans.release()
            #expect(try await store.items(matching: filter, sort: .newest, after: nil, limit: 20).isEmpty)
            #expect(scans.tryAcquire(), "the search gave its place back")
        }
    }
}
