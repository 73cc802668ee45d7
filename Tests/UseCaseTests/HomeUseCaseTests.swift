import Domain
import Foundation
import MockSupport
import Scenes
import Synchronization
import Testing

@Suite("Home use case")
struct HomeUseCaseTests {
    /// Records the limit each list was asked with.
    final class Store: HomeStore, Sendable {
        let asked = Mutex<[String: Int]>([:])
        func newArrivals(limit: Int) async throws -> [Item] {
            asked.withLock { $0["new"] = limit }
            return [Fixtures.item(1)]
        }
        func topRated(limit: Int) async throws -> [Item] {
            asked.withLock { $0["top"] = limit }
            return [Fixtures.item(2)]
        }
        func categories(limit: Int) async throws -> [CategoryCount] {
            asked.withLock { $0["categories"] = limit }
            return [CategoryCount(name: "kitchen", itemCount: 2)]
        }
    }

    @Test func everyListIsBounded() async throws {
        let store = Store()
        let container = HomeContainer(store: store, system: Fixtures.system)
        switch try await container.useCase.feed(HomeFeedInput()) {
        case .feed(let feed):
            #expect(feed.newArrivals == [Fixtures.item(1)] && feed.topRated == [Fixtures.item(2)])
            #expect(feed.categories == [CategoryCount(name: "kitchen", itemCount: 2)])
        }
        #expect(store.asked.withLock { $0 } == ["new": 10, "top": 10, "categories": 50])
    }
}
