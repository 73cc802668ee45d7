import Foundation

/// The shop's front page: the newest items, the best rated, and the categories with how many
/// items each holds. Every list is bounded.
public struct HomeFeed: Hashable, Sendable {
    public let newArrivals: [Item]
    public let topRated: [Item]
    public let categories: [CategoryCount]

    public init(newArrivals: [Item], topRated: [Item], categories: [CategoryCount]) {
        self.newArrivals = newArrivals
        self.topRated = topRated
        self.categories = categories
    }
}

public struct CategoryCount: Hashable, Sendable {
    public let name: String
    public let itemCount: Int

    public init(name: String, itemCount: Int) {
        self.name = name
        self.itemCount = itemCount
    }
}

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
