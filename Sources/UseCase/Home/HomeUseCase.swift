import Domain

/// The home feed, read in parallel from three indexed queries.
public struct HomeUseCase: Sendable {
    public static let newArrivalsLimit = 10
    public static let topRatedLimit = 10
    public static let categoriesLimit = 50

    let store: any HomeStore

    public init(store: any HomeStore) {
        self.store = store
    }

    /// - Throws: `StoreUnavailable`.
    public func feed() async throws -> HomeFeed {
        async let newArrivals = store.newArrivals(limit: Self.newArrivalsLimit)
        async let topRated = store.topRated(limit: Self.topRatedLimit)
        async let categories = store.categories(limit: Self.categoriesLimit)
        return HomeFeed(newArrivals: try await newArrivals, topRated: try await topRated, categories: try await categories)
    }
}
