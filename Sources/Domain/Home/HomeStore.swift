/// Where the home feed is read from. Implemented by `PostgresHomeStore`, every list by an index.
/// Every method throws `StoreUnavailable` when the store cannot be reached.
public protocol HomeStore: Sendable {
    /// The newest items, newest first.
    func newArrivals(limit: Int) async throws -> [Item]
    /// Reviewed items by average rating, then by how many reviews back it.
    func topRated(limit: Int) async throws -> [Item]
    /// Categories that hold items, by name.
    func categories(limit: Int) async throws -> [CategoryCount]
}
