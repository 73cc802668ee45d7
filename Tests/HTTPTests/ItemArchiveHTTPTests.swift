import Foundation
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

/// Staff take an item off sale and put it back: archived, it is in no list, page, facet or feed,
/// answers 404 to customers (its reviews too, and it takes no new one), leaves every cart and
/// takes no line, and the staff still read it; restored, it is back.
@Suite("Archiving an item over HTTP")
struct ItemArchiveHTTPTests {
    @Test func anArchivedItemLeavesTheShopAndComesBack() async throws {
        try await withApp { client, db in
            let created = try await client.send(.post, "/v1/admin/items", json: VariantHTTPTests.tee, token: adminToken)
            let id = try #require(try created.json["id"] as? String)
            let variant = try #require((try created.json["variants"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try created.json["archived_at"] is NSNull)
            let (_, token) = try await signedInCustomer(db)
            let carted = try await client.send(.put, "/v1/cart/variants/\(variant)", json: #"{"quantity": 1}"#, token: token)
            #expect(carted.status == .ok)
            let review = try await ReviewHTTPTests.postReview(client, item: try #require(UUID(uuidString: id)), token: token)

            let archived = try await client.send(.post, "/v1/admin/items/\(id)/archive", token: adminToken)
            #expect(archived.status == .ok, "\(String(buffer: archived.body))")
            let since = try #require(try archived.json["archived_at"] as? String)
            let again = try await client.send(.post, "/v1/admin/items/\(id)/archive", token: adminToken)
            #expect(try again.json["archived_at"] as? String == since, "archiving again keeps the first time")

            try await client.send(.get, "/v1/items/\(id)").expectProblem(404)
            let staff = try await client.send(.get, "/v1/admin/items/\(id)", token: adminToken)
            #expect(staff.status == .ok, "the staff still see it")
            #expect(try staff.json["archived_at"] as? String == since)
            try await client.send(.get, "/v1/items/\(id)/reviews").expectProblem(404)
            try await client.send(.get, "/v1/items/\(id)/photos").expectProblem(404)
            // Its reviews take no photo either, their author's included.
            try await ReviewHTTPTests.upload(client, review: review, token: token).expectProblem(404)
            let wished = try await client.send(.post, "/v1/wishlist", json: #"{"item_id":"\#(id)"}"#, token: token)
            _ = try wished.expectProblem(422)
            #expect(wished.fieldNames == ["item_id"])
            let (_, reviewer) = try await signedInCustomer(db)
            try await client.send(.post, "/v1/items/\(id)/reviews", json: #"{"content":"Gone","rating":3}"#, token: reviewer)
                .expectProblem(404)
            #expect((try await client.send(.get, "/v1/items").json["data"] as? [Any])?.isEmpty == true)
            #expect((try await client.send(.get, "/v1/items?q=shirt&category=apparel").json["data"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/v1/items/facets").json["total"] as? Int == 0)
            let home = try await client.send(.get, "/v1/home").json
            #expect((home["new_arrivals"] as? [Any])?.isEmpty == true)
            #expect((home["categories"] as? [[String: Any]])?.isEmpty == true, "no category counts it")
            #expect((try await client.send(.get, "/v1/cart", token: token).json["lines"] as? [Any])?.isEmpty == true)
            try await client.send(.put, "/v1/cart/variants/\(variant)", json: #"{"quantity": 1}"#, token: token).expectProblem(404)

            let restored = try await client.send(.post, "/v1/admin/items/\(id)/restore", token: adminToken)
            #expect(restored.status == .ok)
            #expect(try restored.json["archived_at"] is NSNull)
            #expect(try await client.send(.get, "/v1/items/\(id)").status == .ok)
            #expect((try await client.send(.get, "/v1/items").json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let categories = try await client.send(.get, "/v1/home").json["categories"] as? [[String: Any]]
            #expect(categories?.map { $0["name"] as? String } == ["apparel"])
            #expect(try await client.send(.put, "/v1/cart/variants/\(variant)", json: #"{"quantity": 1}"#, token: token).status == .ok)
            #expect(try await client.send(.get, "/v1/items/\(id)/photos").status == .ok)
            #expect(try await ReviewHTTPTests.upload(client, review: review, token: token).status == .created)
            #expect(try await client.send(.post, "/v1/wishlist", json: #"{"item_id":"\#(id)"}"#, token: token).status == .created)

            try await client.send(.post, "/v1/admin/items/\(UUID())/archive", token: adminToken).expectProblem(404)
            try await client.send(.post, "/v1/admin/items/\(UUID())/restore", token: adminToken).expectProblem(404)
            try await client.send(.post, "/v1/admin/items/\(id)/archive", token: token).expectProblem(401)
        }
    }
}
