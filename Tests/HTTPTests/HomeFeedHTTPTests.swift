import Foundation
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

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
            let feed = try response.json
            let newArrivals = try #require(feed["new_arrivals"] as? [[String: Any]])
            #expect(newArrivals.map { $0["id"] as? String } == [newer, older].map { $0.uuidString.lowercased() })
            let topRated = try #require(feed["top_rated"] as? [[String: Any]])
            #expect(topRated.map { $0["id"] as? String } == [older.uuidString.lowercased()])
            #expect(topRated.first?["rating_average"] as? Double == 5 && topRated.first?["review_count"] as? Int == 1)
            let categories = try #require(feed["categories"] as? [[String: Any]])
            #expect(categories.map { $0["name"] as? String } == ["kitchen"] && categories.map { $0["item_count"] as? Int } == [2])
        }
    }
}
