/// Where the home feed is read from. Implemented by `PostgresHomeStore`, every list by an index.
/// Every method throws `StoreUnavailable` when the store cannot be reached.
public protocol HomeStore: Sendable {
    /// The newest items, newest first.
    func newArrivals(limit: Int) async throws -> [Item]
    /// Reviewed items in the catalog's rating order: the mean weighed toward three stars by five
    /// reviews' worth, so a few reviews do not outrank many.
    func topRated(limit: Int) async throws -> [Item]
    /// Categories that hold items, by name.
    func categories(limit: Int) async throws -> [CategoryCount]
}
