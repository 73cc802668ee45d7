import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A facet count reads every item its filter matches with their variants, so the store runs at
/// most its `facetCounts` at once and refuses one more at once (429 with Retry-After) instead
/// of queueing it for a pooled connection: a few anonymous clients asking for the facets of a
/// search over 50,000 items held every connection, and every other route answered 503.
@Suite("Facet counts bounded on real PostgreSQL")
struct PostgresFacetCountsTests {
    @Test func aCountPastTheBoundIsRefusedAndItsPlaceComesBack() async throws {
        try await TestDatabase.with { db throws in
            let counts = ConcurrencyLimit(maximum: 1)
            let store = PostgresItemStore(database: db.pool, facetCounts: counts)
            let filter = ItemFilter(category: nil, priceMin: nil, priceMax: nil, inStock: false, options: [:])
            #expect(try await store.facets(matching: filter, bands: [1000]).total == 0)
            #expect(counts.tryAcquire(), "the count gave its place back")
            let refused = await #expect(throws: TooManyRequests.self) { try await store.facets(matching: filter, bands: [1000]) }
            #expect(refused?.retryAfter == 1)
            counts.release()
            #expect(try await store.facets(matching: filter, bands: [1000]).total == 0)
        }
    }
}
