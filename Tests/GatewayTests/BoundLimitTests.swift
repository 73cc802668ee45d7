import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

/// A page's LIMIT travels as a bound parameter, so every page size shares one prepared statement.
/// Before, it was pasted into the SQL text, and each distinct limit a client asked for became
/// another statement prepared on every connection, never evicted.
@Suite("Page limits are bound, not pasted")
struct BoundLimitTests {
    /// Pages `1...30` rows through `list` on a one-connection pool, with and without a cursor, and
    /// returns how many statements that connection prepared.
    static func preparedStatements(_ list: (PostgresPool, Int, PageCursor?) async throws -> Void) async throws -> Int {
        try await TestDatabase.with { db in
            let pool = PostgresPool(.init(connection: .init(conninfo: db.url), maxConnections: 1))
            let cursor = PageCursor(createdAt: Date(), id: UUID())
            for limit in 1...30 {
                try await list(pool, limit, nil)
                try await list(pool, limit, cursor)
            }
            let count: Int = try await pool.query("SELECT count(*)::int AS n FROM pg_prepared_statements").rows[0].decode("n")
            await pool.shutdown()
            return count
        }
    }

    @Test func everyPagedStoreUsesOneStatementPerShape() async throws {
        let id = UUID()
        let counts = [
            "items": try await Self.preparedStatements { pool, limit, cursor in
                let after = cursor.map { ItemCursor(sort: .newest, key: .time($0.createdAtMicros), id: $0.id) }
                _ = try await PostgresItemStore(database: pool).items(matching: ItemFilter(), sort: .newest, after: after, limit: limit)
            },
            "reviews": try await Self.preparedStatements { pool, limit, cursor in
                _ = try await PostgresReviewStore(database: pool).reviews(itemID: id, after: cursor, limit: limit)
            },
            "photos": try await Self.preparedStatements { pool, limit, cursor in
                // No such item: an empty page asks whether the item exists (one more statement), then 404s.
                let page = try await PostgresItemPhotoStore(database: pool).page(itemID: id, after: cursor, limit: limit)
                #expect(page == nil)
            },
            "wishlist": try await Self.preparedStatements { pool, limit, cursor in
                _ = try await PostgresWishlistEntryStore(database: pool).page(customerID: id, after: cursor, limit: limit)
            },
            "orders": try await Self.preparedStatements { pool, limit, cursor in
                _ = try await PostgresOrderStore(database: pool, currency: Currency("JPY")!).orders(
                    customerID: id, progress: nil, after: cursor, limit: limit)
            },
        ]
        for (store, count) in counts {
            // One statement with a cursor, one without, and the count query itself.
            #expect(count <= (store == "photos" ? 4 : 3), "\(store): \(count) statements prepared for 60 pages")
        }
    }
}
