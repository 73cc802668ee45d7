import Foundation
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

/// `GET /v1/items/{id}` answered from the instance's item cache, with the listener `serve` runs:
/// whatever this instance changes (a checkout, a cancel, a review, the staff's edits) shows in
/// its very next answer, though the change's notification has not necessarily arrived yet.
@Suite("The item cache over HTTP")
struct ItemCacheHTTPTests {
    /// The cache's lookups answered from memory so far (`GET /metrics`).
    static func hits(_ client: any TestClientProtocol) async throws -> Int {
        let metrics = String(buffer: try await client.send(.get, "/metrics", token: adminToken).body)
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(#"item_cache_lookups{outcome="hit"}"#) }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.map { Int($0) } ?? 0
    }

    /// The item as the cache answers it: read until one answer comes from memory, so that the
    /// change that follows meets a kept item.
    static func cached(_ client: any TestClientProtocol, _ item: UUID) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let before = try await hits(client)
            let answer = try await client.send(.get, "/v1/items/\(item)").json
            if try await hits(client) > before { return answer }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSetupError("item \(item) never came from the cache")
    }

    static func shown(_ client: any TestClientProtocol, _ item: UUID) async throws -> [String: Any] {
        try await client.send(.get, "/v1/items/\(item)").json
    }

    static func stock(_ item: [String: Any]) -> Int? {
        (item["variants"] as? [[String: Any]])?.first?["stock"] as? Int
    }

    @Test func thisInstancesChangesShowAtOnce() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: 1200, stock: 5)
            #expect(Self.stock(try await Self.cached(client, mug)) == 5)

            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let paid = try await CheckoutHTTPTests.checkout(client, token, key: "k")
            let order = try #require(try paid.json["id"] as? String)
            #expect(Self.stock(try await Self.shown(client, mug)) == 3, "the checkout's reservation")

            _ = try await Self.cached(client, mug)
            #expect(try await client.send(.post, "/v1/orders/\(order)/cancel", token: token).status == .ok)
            #expect(Self.stock(try await Self.shown(client, mug)) == 5, "the cancel's restock")

            _ = try await Self.cached(client, mug)
            let review = try await client.send(.post, "/v1/items/\(mug)/reviews", json: #"{"content":"Sturdy","rating":4}"#, token: token)
            #expect(review.status == .created)
            #expect(try await Self.shown(client, mug)["review_count"] as? Int == 1, "the review")

            _ = try await Self.cached(client, mug)
            try await client.send(.patch, "/v1/admin/items/\(mug)", json: #"{"name":"Cup"}"#, token: adminToken)
            #expect(try await Self.shown(client, mug)["name"] as? String == "Cup", "the staff's edit")

            let variant = try #require((try await Self.cached(client, mug)["variants"] as? [[String: Any]])?.first?["id"] as? String)
            let adjusted = try await client.send(
                .post, "/v1/admin/variants/\(variant)/stock", json: #"{"delta":-4,"reason":"broken"}"#, token: adminToken)
            #expect(adjusted.status == .ok)
            #expect(Self.stock(try await Self.shown(client, mug)) == 1, "the staff's stock count")
        }
    }

    @Test func aChangeMadeElsewhereShowsOnceItsNotificationArrives() async throws {
        try await withApp { client, db in
            let mug = try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: 1200, stock: 5)
            _ = try await Self.cached(client, mug)
            // Another instance, or a person at psql: only the notification tells this one.
            try await db.pool.query("UPDATE items SET name = 'Beaker' WHERE id = $1", mug)
            let deadline = ContinuousClock.now + .seconds(10)
            while try await Self.shown(client, mug)["name"] as? String != "Beaker" {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the change never showed")
                    return
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }
}
