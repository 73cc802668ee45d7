import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Testing
import Translator

@Suite("Cart over HTTP, whole app on real PostgreSQL")
struct CartHTTPTests {
    /// Signs a new customer up and in; returns the session token.
    static func signedIn(_ client: any TestClientProtocol, _ email: String) async throws -> String {
        try await client.send(.post, "/v1/customers", json: #"{"email":"\#(email)","password":"correct horse","name":"N"}"#)
        let session = try await client.send(.post, "/v1/sessions", json: #"{"email":"\#(email)","password":"correct horse"}"#)
        return try session.decode(SessionModel.self).token
    }

    static func item(_ client: any TestClientProtocol, sku: String, price: Int, stock: Int) async throws -> String {
        let body =
            #"{"sku":"\#(sku)","name":"Item \#(sku)","category":"kitchen","price":{"amount":\#(price),"currency":"JPY"},"stock":\#(stock)}"#
        return try #require(try await client.send(.post, "/v1/admin/items", json: body, token: adminToken).json["id"] as? String)
    }

    @Test func fillChangeAndEmptyACart() async throws {
        try await withApp { client, _ in
            let token = try await Self.signedIn(client, "a@example.com")
            let mug = try await Self.item(client, sku: "MUG", price: 1200, stock: 5)
            let pen = try await Self.item(client, sku: "PEN", price: 350, stock: 9)

            let empty = try await client.send(.get, "/v1/cart", token: token).decode(CartViewModel.self)
            #expect(empty.subtotal.amount == 0)

            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let cart = try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 3}"#, token: token)
            #expect(cart.status == .ok)
            let lines = try #require(try cart.json["lines"] as? [[String: Any]])
            #expect(
                Set(lines[0].keys) == [
                    "item_id", "variant_id", "sku", "name", "options", "tax_class", "unit_price", "quantity", "line_total",
                ])
            let body = try cart.decode(CartViewModel.self)
            #expect(body.subtotal.amount == 2 * 1200 + 3 * 350 && body.itemCount == 5)
            #expect(body.lines.map(\.lineTotal.amount) == [2 * 1200, 3 * 350])

            // Prices shown are the item's current price.
            try await client.send(.patch, "/v1/admin/items/\(mug)", json: #"{"price": {"amount": 1000}}"#, token: adminToken)
            let repriced = try await client.send(.get, "/v1/cart", token: token).decode(CartViewModel.self)
            #expect(repriced.subtotal.amount == 2 * 1000 + 3 * 350)

            let afterDelete = try await client.send(.delete, "/v1/cart/items/\(mug)", token: token).decode(CartViewModel.self)
            #expect(afterDelete.itemCount == 3)
            let zero = try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 0}"#, token: token)
            #expect(try zero.decode(CartViewModel.self).lines.isEmpty)
        }
    }

    @Test func stockAndBadInput() async throws {
        try await withApp { client, _ in
            let token = try await Self.signedIn(client, "b@example.com")
            let mug = try await Self.item(client, sku: "MUG", price: 1200, stock: 2)
            let tooMany = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 3}"#, token: token)
            let problem = try tooMany.expectProblem(409)
            #expect(problem["available"] as? Int == 2)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 100}"#, token: token).expectProblem(422)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": "two"}"#, token: token).expectProblem(422)
            try await client.send(.put, "/v1/cart/items/\(UUID())", json: #"{"quantity": 1}"#, token: token).expectProblem(404)
            try await client.send(.put, "/v1/cart/items/not-a-uuid", json: #"{"quantity": 1}"#, token: token).expectProblem(400)
        }
    }

    @Test func customersSeeOnlyTheirOwnCart() async throws {
        try await withApp { client, _ in
            let alice = try await Self.signedIn(client, "alice@example.com")
            let bob = try await Self.signedIn(client, "bob@example.com")
            let mug = try await Self.item(client, sku: "MUG", price: 1200, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: alice)
            let bobsCart = try await client.send(.get, "/v1/cart", token: bob).decode(CartViewModel.self)
            #expect(bobsCart.lines.isEmpty)
            // Bob removing the item touches only his own (empty) cart.
            try await client.send(.delete, "/v1/cart/items/\(mug)", token: bob)
            #expect(try await client.send(.get, "/v1/cart", token: alice).decode(CartViewModel.self).itemCount == 2)
            try await client.send(.get, "/v1/cart").expectProblem(401)
        }
    }
}
