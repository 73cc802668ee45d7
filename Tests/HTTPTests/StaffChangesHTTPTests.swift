import Foundation
import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

/// What the staff can do to an item while it sits in a customer's cart, and the customer's next
/// requests: never a 500. Before, an item repriced in another currency made `GET /v1/cart` and
/// checkout answer 500 (`MoneyError.currencyMismatch`); the catalog now refuses such a price,
/// and an item priced before the shop's currency changed is what still carries another.
@Suite("Staff changes under a customer's cart")
struct StaffChangesHTTPTests {
    static func carted(_ client: any TestClientProtocol, _ db: TestDatabase, stock: Int = 5) async throws -> (
        token: String, mug: UUID, pen: UUID
    ) {
        let (_, token) = try await signedInCustomer(db)
        let mug = try await CheckoutHTTPTests.item(db, stock: stock)
        let pen = try await CheckoutHTTPTests.item(db, stock: stock, price: 300)
        try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
        try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 1}"#, token: token)
        return (token, mug, pen)
    }

    @Test func anItemPricedInAnotherCurrencyIsFlaggedAndRefusedByName() async throws {
        try await withApp { client, db in
            let (token, mug, pen) = try await Self.carted(client, db)
            let patched = try await client.send(
                .patch, "/v1/admin/items/\(mug)", json: #"{"price": {"amount": 800, "currency": "USD"}}"#, token: adminToken)
            #expect(patched.fieldNames == ["price.currency"], "\(String(buffer: patched.body))")
            try patched.expectProblem(422)
            // As if the shop's currency had changed from dollars to yen after the mug was priced.
            _ = try await db.pool.query("UPDATE items SET price_currency = 'USD' WHERE id = $1", mug)

            let cart = try await client.send(.get, "/v1/cart", token: token)
            #expect(cart.status == .ok, "\(String(buffer: cart.body))")
            let body = try cart.json
            #expect(body["unavailable_item_ids"] as? [String] == [mug.uuidString.lowercased()])
            #expect((body["subtotal"] as? [String: Any])?["amount"] as? Int == 300)
            #expect((body["subtotal"] as? [String: Any])?["currency"] as? String == "JPY")

            let refused = try await CheckoutHTTPTests.checkout(client, token, key: "k1")
            let problem = try refused.expectProblem(409)
            #expect(problem["item_ids"] as? [String] == [mug.uuidString.lowercased()])
            #expect(try await CheckoutHTTPTests.stock(db, pen) == 5, "nothing reserved")
            #expect(try await db.pool.query("SELECT id FROM orders").rows.isEmpty)

            // Adding it again is refused the same way; removing it lets the rest be bought.
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token).expectProblem(409)
            try await client.send(.delete, "/v1/cart/items/\(mug)", token: token)
            let paid = try await CheckoutHTTPTests.checkout(client, token, key: "k2")
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
            #expect((try paid.json["total"] as? [String: Any])?["amount"] as? Int == 300)
        }
    }

    @Test func stockTakenAwayAndPricesChangedAfterCarting() async throws {
        try await withApp { client, db in
            let (token, mug, pen) = try await Self.carted(client, db)
            let mugVariant = try await TestRows.variantID(of: mug, db)
            let adjust = { (delta: Int) in
                try await client.send(
                    .post, "/v1/admin/variants/\(mugVariant)/stock", json: #"{"delta": \#(delta), "reason": "breakage"}"#, token: adminToken
                )
            }
            #expect(try await adjust(-4).status == .ok, "5 - 4 leaves 1 of the 2 carted")
            try await client.send(.patch, "/v1/admin/items/\(pen)", json: #"{"price": {"amount": 77}}"#, token: adminToken)
            #expect(try await client.send(.get, "/v1/cart", token: token).status == .ok)
            let short = try await CheckoutHTTPTests.checkout(client, token, key: "k1")
            let problem = try short.expectProblem(409)
            #expect(problem["item_ids"] as? [String] == [mug.uuidString.lowercased()])

            #expect(try await adjust(-1).status == .ok)
            #expect(try await client.send(.get, "/v1/cart", token: token).status == .ok)
            try await client.send(.delete, "/v1/cart/items/\(mug)", token: token)
            // The order is priced as the item is now, not as it was carted.
            let paid = try await CheckoutHTTPTests.checkout(client, token, key: "k2")
            #expect((try paid.json["total"] as? [String: Any])?["amount"] as? Int == 77)
        }
    }
}
