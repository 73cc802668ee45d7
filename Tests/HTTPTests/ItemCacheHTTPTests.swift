import Foundation
import Gateway
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

/// `GET /v1/items/{id}` answered from the instance's item cache.
@Suite("The item cache over HTTP")
struct ItemCacheHTTPTests {
    /// The item as the cache answers it: shown once, so that the change that follows meets a kept
    /// item.
    static func cached(_ client: any TestClientProtocol, _ cache: ItemCache, _ item: UUID) async throws -> [String: Any] {
        let shown = try await client.send(.get, "/v1/items/\(item)").json
        try #require(cache.item(id: item) != nil, "item \(item) is kept")
        return shown
    }

    static func shown(_ client: any TestClientProtocol, _ item: UUID) async throws -> [String: Any] {
        try await client.send(.get, "/v1/items/\(item)").json
    }

    static func stock(_ item: [String: Any]) -> Int? {
        (item["variants"] as? [[String: Any]])?.first?["stock"] as? Int
    }

    /// With no notification ever heard (a cache that trusts itself, and no listener), whatever
    /// this instance changes shows in its very next answer: a checkout, a cancel, a review, the
    /// staff's edits. Only the stores' own forgetting can make it so.
    @Test func thisInstancesChangesShowAtOnce() async throws {
        let cache = ItemCache(capacity: 100, silenceLimit: .seconds(3600))
        cache.setListening(true)
        try await withApp(itemCache: cache, configure: { $0.itemCacheSize = 0 }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: 1200, stock: 5)
            #expect(Self.stock(try await Self.cached(client, cache, mug)) == 5)

            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let paid = try await CheckoutHTTPTests.checkout(client, token, key: "k")
            let order = try #require(try paid.json["id"] as? String)
            #expect(Self.stock(try await Self.shown(client, mug)) == 3, "the checkout's reservation")

            _ = try await Self.cached(client, cache, mug)
            #expect(try await client.send(.post, "/v1/orders/\(order)/cancel", token: token).status == .ok)
            #expect(Self.stock(try await Self.shown(client, mug)) == 5, "the cancel's restock")

            _ = try await Self.cached(client, cache, mug)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
            let declined = try await CheckoutHTTPTests.checkout(client, token, key: "k2", method: "pm_card_chargeCustomerFail")
            #expect(declined.status.code == 402)
            #expect(Self.stock(try await Self.shown(client, mug)) == 5, "the declined payment's restock")

            _ = try await Self.cached(client, cache, mug)
            let review = try await client.send(.post, "/v1/items/\(mug)/reviews", json: #"{"content":"Sturdy","rating":4}"#, token: token)
            #expect(review.status == .created)
            #expect(try await Self.shown(client, mug)["review_count"] as? Int == 1, "the review")

            _ = try await Self.cached(client, cache, mug)
            try await client.send(.patch, "/v1/admin/items/\(mug)", json: #"{"name":"Cup"}"#, token: adminToken)
            #expect(try await Self.shown(client, mug)["name"] as? String == "Cup", "the staff's edit")

            let variant = try #require((try await Self.cached(client, cache, mug)["variants"] as? [[String: Any]])?.first?["id"] as? String)
            let adjusted = try await client.send(
                .post, "/v1/admin/variants/\(variant)/stock", json: #"{"delta":-4,"reason":"broken"}"#, token: adminToken)
            #expect(adjusted.status == .ok)
            #expect(Self.stock(try await Self.shown(client, mug)) == 1, "the staff's stock count")
        }
    }

    /// As `serve` runs it: another instance's change (here, a person's at psql) shows once its
    /// notification arrives.
    @Test func aChangeMadeElsewhereShowsOnceItsNotificationArrives() async throws {
        let cache = ItemCache(capacity: 100)
        try await withApp(itemCache: cache) { client, db in
            let mug = try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: 1200, stock: 5)
            // Shown until the cache, once it listens, keeps it.
            let deadline = ContinuousClock.now + .seconds(10)
            while cache.item(id: mug) == nil {
                #expect(try await Self.shown(client, mug)["name"] as? String == "Mug")
                guard ContinuousClock.now < deadline else { throw TestSetupError("the cache never kept the item") }
                try await Task.sleep(for: .milliseconds(10))
            }
            try await db.pool.query("UPDATE items SET name = 'Beaker' WHERE id = $1", mug)
            while try await Self.shown(client, mug)["name"] as? String != "Beaker" {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the change never showed")
                    return
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    @Test func metricsSayWhetherTheCacheAnswers() async throws {
        try await withApp { client, db in
            let mug = try await TestRows.insertItem(db)
            _ = try await Self.shown(client, mug)
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                let metrics = String(buffer: try await client.send(.get, "/metrics", token: adminToken).body)
                if metrics.contains("item_cache_trusted 1") && metrics.contains(#"item_cache_lookups_total{outcome="miss"}"#) { break }
                guard ContinuousClock.now < deadline else {
                    Issue.record("the metrics never showed a listening cache: \(metrics.prefix(2000))")
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
