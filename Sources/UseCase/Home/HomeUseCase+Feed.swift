// once: created by scenegen from Specs/Home.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension HomeUseCase {
    public static let newArrivalsLimit = 10
    public static let topRatedLimit = 10
    public static let categoriesLimit = 50

    /// `GET /v1/home` (auth: public): the three lists, read in parallel, each bounded.
    /// - Throws: `StoreUnavailable`.
    public func feed(_ input: HomeFeedInput) async throws -> HomeFeedOutcome {
        async let newArrivals = store.newArrivals(limit: Self.newArrivalsLimit)
        async let topRated = store.topRated(limit: Self.topRatedLimit)
        async let categories = store.categories(limit: Self.categoriesLimit)
        return .feed(HomeFeed(newArrivals: try await newArrivals, topRated: try await topRated, categories: try await categories))
    }
}
