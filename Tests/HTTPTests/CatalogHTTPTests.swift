import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Testing
import Translator

@Suite("Catalog over HTTP, whole app on real PostgreSQL")
struct CatalogHTTPTests {
    @Test func adminCreatesThenAnyoneReads() async throws {
        try await withApp { client, _ in
            let created = try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken)
            #expect(created.status == .created)
            let item = try created.decode(ItemModel.self)
            let id = item.id
            #expect(created.headers[.location] == "/v1/items/\(id)")
            #expect(item.sku == "MUG-1" && item.price.amount == 1200 && item.createdAt.hasSuffix("Z"))

            let fetched = try await client.send(.get, "/v1/items/\(id)")
            #expect(fetched.status == .ok)
            #expect(try fetched.decode(ItemModel.self).name == "Mug")

            let list = try await client.send(.get, "/v1/items?limit=5&category=kitchen&q=stone")
            #expect(list.status == .ok)
            #expect(try list.json["next_cursor"] is NSNull, "written, as null")
            let page = try list.decode(PageModel<ItemModel>.self)
            #expect(page.data.map(\.id) == [id] && page.nextCursor == nil)
        }
    }

    @Test func listPagesWithCursorsToTheEnd() async throws {
        try await withApp { client, _ in
            for n in 1...5 {
                let body = validItemJSON.replacingOccurrences(of: "MUG-1", with: "MUG-\(n)")
                try await client.send(.post, "/v1/admin/items", json: body, token: adminToken)
            }
            var skus: [String] = []
            var uri = "/v1/items?limit=2"
            while true {
                let page = try await client.send(.get, uri).decode(PageModel<ItemModel>.self)
                skus += page.data.map(\.sku)
                guard let cursor = page.nextCursor else { break }
                uri = "/v1/items?limit=2&cursor=\(cursor)"
            }
            #expect(skus.count == 5 && Set(skus).count == 5)
        }
    }

    @Test func patchChangesOnlyWhatItNames() async throws {
        try await withApp { client, _ in
            let id = try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken).decode(ItemModel.self).id
            let patched = try await client.send(
                .patch, "/v1/admin/items/\(id)", json: #"{"category": "tea", "price": {"amount": 1500}}"#, token: adminToken)
            #expect(patched.status == .ok)
            let item = try patched.decode(ItemModel.self)
            #expect(item.stock == 3 && item.name == "Mug" && item.category == "tea")
            #expect(item.price.amount == 1500 && item.price.currency == "JPY")
            #expect(item.variants.map(\.price.amount) == [1500], "the price of the item's one variant")
            // Stock is never set: a PATCH naming it changes nothing and says so.
            let blind = try await client.send(.patch, "/v1/admin/items/\(id)", json: #"{"stock": 10}"#, token: adminToken)
            try blind.expectProblem(422)
        }
    }

    /// A query parameter given twice is refused, not read as its first value.
    @Test func aRepeatedQueryParameterIsRefused() async throws {
        try await withApp { client, _ in
            for query in ["category=kitchen&category=garden", "limit=1&limit=2", "cursor=a&cursor=b"] {
                let twice = try await client.send(.get, "/v1/items?\(query)")
                try twice.expectProblem(422)
                #expect(twice.fieldNames == [String(query.prefix { $0 != "=" })], "\(query)")
            }
            #expect(try await client.send(.get, "/v1/items?category=kitchen&limit=2").status == .ok)
        }
    }

    @Test func unknownAndMalformedIDs() async throws {
        try await withApp { client, _ in
            try await client.send(.get, "/v1/items/\(UUID())").expectProblem(404)
            let bad = try await client.send(.get, "/v1/items/not-a-uuid").expectProblem(400)
            #expect((bad["errors"] as? [[String: String]])?.first?["field"] == "id")
            try await client.send(.patch, "/v1/admin/items/\(UUID())", json: #"{"name": "x"}"#, token: adminToken).expectProblem(404)
            try await client.send(.get, "/v1/nothing-here").expectProblem(404)
        }
    }

    @Test func badQueryParameters() async throws {
        try await withApp { client, _ in
            for uri in ["/v1/items?limit=0", "/v1/items?limit=101", "/v1/items?limit=abc"] {
                let response = try await client.send(.get, uri)
                try response.expectProblem(422)
                #expect(response.fieldNames == ["limit"])
            }
            let cursor = try await client.send(.get, "/v1/items?cursor=not-ours")
            try cursor.expectProblem(400)
            #expect(cursor.fieldNames == ["cursor"])
            for name in ["q", "category", "cursor"] {
                let nul = try await client.send(.get, "/v1/items?\(name)=mug%00cup")
                try nul.expectProblem(422)
                #expect(nul.fieldNames == [name])
            }
        }
    }

    @Test func adminRoutesNeedTheToken() async throws {
        try await withApp { client, _ in
            let missing = try await client.send(.post, "/v1/admin/items", json: validItemJSON)
            try missing.expectProblem(401)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: "wrong-token-wrong-token").expectProblem(401)
            try await client.send(.patch, "/v1/admin/items/\(UUID())", json: "{}", token: "nope").expectProblem(401)
        }
        try await withApp(adminToken: nil) { client, _ in
            _ = try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken).expectProblem(401)
        }
    }

    @Test func duplicateSKUIsAConflict() async throws {
        try await withApp { client, _ in
            try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken)
            let again = try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken)
            try again.expectProblem(409)
            #expect(again.fieldNames == ["sku"])
        }
    }

    @Test func badBodiesGetClearAnswers() async throws {
        try await withApp { client, _ in
            try await client.send(.post, "/v1/admin/items", json: "{\"sku\": ", token: adminToken).expectProblem(400)
            let wrongType = try await client.send(
                .post, "/v1/admin/items", json: validItemJSON.replacingOccurrences(of: "\"stock\":3", with: "\"stock\":\"three\""),
                token: adminToken)
            try wrongType.expectProblem(422)
            #expect(wrongType.fieldNames == ["stock"])
            // Every unreadable member in one answer: a money object without its currency too.
            let twoWrong = try await client.send(
                .post, "/v1/admin/items",
                json: validItemJSON.replacingOccurrences(of: "\"stock\":3", with: "\"stock\":\"three\"")
                    .replacingOccurrences(of: "\"currency\":\"JPY\"", with: "\"note\":1"),
                token: adminToken)
            try twoWrong.expectProblem(422)
            #expect(Set(twoWrong.fieldNames) == ["stock", "price.currency"], "\(twoWrong.fieldNames)")
            let missing = try await client.send(.post, "/v1/admin/items", json: #"{"sku":"A"}"#, token: adminToken)
            try missing.expectProblem(422)
            // Every missing field at once; then what an item without variants also needs.
            #expect(Set(missing.fieldNames) == ["name", "category"])
            let plain = try await client.send(.post, "/v1/admin/items", json: #"{"sku":"A","name":"A","category":"a"}"#, token: adminToken)
            try plain.expectProblem(422)
            #expect(Set(plain.fieldNames) == ["price", "stock"])
            let negative = try await client.send(
                .post, "/v1/admin/items",
                json: validItemJSON.replacingOccurrences(of: "1200", with: "-5").replacingOccurrences(
                    of: "\"stock\":3", with: "\"stock\":-1"),
                token: adminToken)
            try negative.expectProblem(422)
            #expect(Set(negative.fieldNames) == ["price.amount", "stock"])
            let nested = try await client.send(
                .post, "/v1/admin/items", json: validItemJSON.replacingOccurrences(of: "1200", with: "\"lots\""), token: adminToken)
            #expect(nested.fieldNames == ["price.amount"])
            try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken, contentType: "text/plain")
                .expectProblem(415)
            // The media type is compared whole, in any case, whatever its parameters.
            for lookalike in ["application/jsonx", "application/json-seq", "application/json+x"] {
                try await client.send(.post, "/v1/admin/items", json: validItemJSON, token: adminToken, contentType: lookalike)
                    .expectProblem(415)
            }
            let spelled = try await client.send(
                .post, "/v1/admin/items", json: validItemJSON.replacingOccurrences(of: "MUG-1", with: "MUG-2"), token: adminToken,
                contentType: "Application/JSON ; charset=utf-8")
            #expect(spelled.status == .created, "\(String(buffer: spelled.body))")
            try await client.send(.patch, "/v1/admin/items/\(UUID())", json: "{}", token: adminToken).expectProblem(422)
        }
    }

    @Test func oversizeBodiesAreRefused() async throws {
        try await withApp { client, _ in
            let huge = "{\"sku\":\"A\",\"description\":\"" + String(repeating: "x", count: 100_000) + "\"}"
            try await client.send(.post, "/v1/admin/items", json: huge, token: adminToken).expectProblem(413)
        }
    }

    @Test func healthFollowsTheDatabase() async throws {
        try await withApp { client, _ in
            let health = try await client.send(.get, "/health")
            #expect(health.status == .ok)
        }
    }
}
