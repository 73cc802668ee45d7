import Domain
import Postgres

/// `HomeStore` on PostgreSQL. Each statement is answered by an index (Migrations/0001_catalog.sql
/// and 0006_reviews.sql); `PostgresHomeStoreTests` checks the plans on a large catalog.
public struct PostgresHomeStore: HomeStore {
    static let newArrivals = """
        SELECT \(PostgresItemStore.columns) FROM items WHERE archived_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $1
        """
    /// The catalog's order for `sort=rating` (`PostgresItemStore.order`), so the feed's top-rated
    /// items are that list's first page; an item without reviews has the key -1.
    static let topRated = """
        SELECT \(PostgresItemStore.columns) FROM items WHERE rating_key >= 0 AND archived_at IS NULL
        ORDER BY rating_key DESC, id DESC LIMIT $1
        """
    static let categories = "SELECT name, item_count FROM category_counts WHERE item_count > 0 ORDER BY name LIMIT $1"

    private let database: PostgresPool
    /// Where the media API's files are published: the items' image URLs start with it.
    private let mediaURL: String?

    public init(database: PostgresPool, mediaURL: String? = nil) {
        self.database = database
        self.mediaURL = mediaURL
    }

    public func newArrivals(limit: Int) async throws -> [Item] {
        try await translatingUnavailable {
            try await database.query(Self.newArrivals, limit).rows.map { try PostgresItemStore.item(from: $0, mediaURL: mediaURL) }
        }
    }

    public func topRated(limit: Int) async throws -> [Item] {
        try await translatingUnavailable {
            try await database.query(Self.topRated, limit).rows.map { try PostgresItemStore.item(from: $0, mediaURL: mediaURL) }
        }
    }

    public func categories(limit: Int) async throws -> [CategoryCount] {
        try await translatingUnavailable {
            try await database.query(Self.categories, limit).rows.map { row in
                CategoryCount(name: try row.decode("name"), itemCount: try row.decode("item_count"))
            }
        }
    }
}
