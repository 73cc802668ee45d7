import Foundation
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing
import Translator

@Suite("Home feed over HTTP")
struct HomeFeedHTTPTests {
    @Test func theFeedShowsNewestBestRatedAndCategories() async throws {
        try await withApp { client, db in
            let older = try await CheckoutHTTPTests.item(db, stock: 1)
            let newer = try await CheckoutHTTPTests.item(db, stock: 1)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.post, "/v1/items/\(older)/reviews", json: #"{"content":"Great","rating":5}"#, token: token)
            let response = try await client.send(.get, "/v1/home")
            #expect(response.status == .ok)
            let feed = try response.decode(HomeFeedModel.self)
            #expect(feed.newArrivals.map(\.id) == [newer, older].map { $0.uuidString.lowercased() })
            #expect(feed.topRated.map(\.id) == [older.uuidString.lowercased()])
            #expect(feed.topRated.first?.ratingAverage == 5 && feed.topRated.first?.reviewCount == 1)
            #expect(feed.categories.map(\.name) == ["kitchen"] && feed.categories.map(\.itemCount) == [2])
        }
    }
}
