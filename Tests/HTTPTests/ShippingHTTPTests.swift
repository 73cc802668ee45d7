import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing
import Translator

/// Shipping from the staff's methods to the customer's order, on the real app, PostgreSQL and
/// localstripe: the cart shows what each method charges to an address, checkout takes one, and
/// the order keeps the address, the method and the fee as they were.
@Suite("Shipping over HTTP")
struct ShippingHTTPTests {
    static let tokyo =
        #"{"recipient":"山田 太郎","phone":"03-1234-5678","postal_code":"100-0001","country":"JP","region":"東京都","city":"千代田区","line1":"千代田1-1"}"#
    static let ishigaki =
        #"{"recipient":"比嘉 花子","phone":"0980-12-3456","postal_code":"907-0001","country":"JP","region":"沖縄県","city":"石垣市","line1":"大川1"}"#

    /// "Standard" ships anywhere in Japan for 800 (Okinawa 1500, Ishigaki's 907 postal codes 2500
    /// and never free), free from 5000; "Express" ships to Tokyo only, for 1200.
    static func methods(_ client: any TestClientProtocol) async throws -> (standard: String, express: String) {
        func create(_ path: String, _ body: String) async throws -> String {
            let created = try await client.send(.post, path, json: body, token: adminToken)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            return try #require(try created.json["id"] as? String)
        }
        let standard = try await create(
            "/v1/admin/shipping-methods", #"{"name":"Standard","carrier":"Yamato","free_over":{"amount":5000,"currency":"JPY"}}"#)
        let rates = "/v1/admin/shipping-methods/\(standard)/rates"
        _ = try await create(rates, #"{"country":"JP","fee":{"amount":800,"currency":"JPY"}}"#)
        _ = try await create(rates, #"{"country":"jp","region":"沖縄県","fee":{"amount":1500,"currency":"JPY"}}"#)
        _ = try await create(
            rates,
            #"{"country":"JP","region":"JP-47","postal_code_prefix":"〒907","fee":{"amount":2500,"currency":"JPY"},"free_shipping_applies":false}"#
        )
        // The same place twice is refused.
        try await client.send(.post, rates, json: #"{"country":"JP","fee":{"amount":1,"currency":"JPY"}}"#, token: adminToken)
            .expectProblem(409)
        // So is a fee or a threshold in another currency than the shop's: it would never apply.
        let dollars = try await client.send(
            .post, rates, json: #"{"country":"US","fee":{"amount":1,"currency":"USD"}}"#, token: adminToken
        ).expectProblem(422)
        #expect((dollars["errors"] as? [[String: String]])?.map { $0["field"] } == ["fee.currency"])
        let threshold = try await client.send(
            .patch, "/v1/admin/shipping-methods/\(standard)", json: #"{"free_over":{"amount":50,"currency":"USD"}}"#,
            token: adminToken
        ).expectProblem(422)
        #expect((threshold["errors"] as? [[String: String]])?.first?["message"] == "must be the shop's currency (JPY)")
        let express = try await create("/v1/admin/shipping-methods", #"{"name":"Express","carrier":"Sagawa"}"#)
        _ = try await create(
            "/v1/admin/shipping-methods/\(express)/rates", #"{"country":"JP","region":"Tokyo","fee":{"amount":1200,"currency":"JPY"}}"#)
        return (standard, express)
    }

    static func options(_ client: any TestClientProtocol, _ token: String, address: String) async throws -> [[String: Any]] {
        let cart = try await client.send(.get, "/v1/cart?address_id=\(address)", token: token)
        #expect(cart.status == .ok, "\(String(buffer: cart.body))")
        return try cart.json["shipping_options"] as? [[String: Any]] ?? []
    }

    static func fees(_ options: [[String: Any]]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: options.map { ($0["name"] as! String, ($0["fee"] as! [String: Any])["amount"] as! Int) })
    }

    @Test func theCartShowsEachMethodsFeeAndTheOrderKeepsWhatItWas() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let (standard, express) = try await Self.methods(client)
            let tokyo = try #require(try await client.send(.post, "/v1/addresses", json: Self.tokyo, token: token).json["id"] as? String)
            let island = try #require(
                try await client.send(.post, "/v1/addresses", json: Self.ishigaki, token: token).json["id"] as? String)
            let mug = try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: 1100, stock: 20)
            #expect(try await Self.options(client, token, address: tokyo).isEmpty, "an empty cart ships no way")
            _ = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)

            #expect(Self.fees(try await Self.options(client, token, address: tokyo)) == ["Standard": 800, "Express": 1200])
            #expect(Self.fees(try await Self.options(client, token, address: island)) == ["Standard": 2500])
            #expect(try await client.send(.get, "/v1/cart", token: token).json["shipping_options"] as? [Any] != nil)
            // Past 5000 Tokyo ships free; the island does not.
            _ = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 5}"#, token: token)
            let free = try await Self.options(client, token, address: tokyo)
            #expect(Self.fees(free) == ["Standard": 0, "Express": 1200] && free.first?["free"] as? Bool == true)
            #expect(Self.fees(try await Self.options(client, token, address: island)) == ["Standard": 2500])
            _ = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)

            // Another customer's address is no address of yours.
            let (_, other) = try await signedInCustomer(db)
            let notYours = try await client.send(.get, "/v1/cart?address_id=\(tokyo)", token: other).expectProblem(422)
            #expect((notYours["errors"] as? [[String: String]])?.map { $0["field"] } == ["address_id"])

            // Checkout: the shop ships, so an address and a method are required, and must fit.
            func checkout(_ body: String, key: String = UUID().uuidString) async throws -> TestResponse {
                try await client.send(.post, "/v1/orders", json: body, token: token, headers: [.init("Idempotency-Key")!: key])
            }
            let none = try await checkout(#"{"payment_method":"pm_card_visa"}"#)
            _ = try none.expectProblem(422)
            #expect(Set(none.fieldNames) == ["address_id", "shipping_method_id"])
            let half = try await checkout(#"{"payment_method":"pm_card_visa","address_id":"\#(tokyo)"}"#)
            _ = try half.expectProblem(422)
            #expect(half.fieldNames == ["shipping_method_id"])
            let far = try await checkout(#"{"payment_method":"pm_card_visa","address_id":"\#(island)","shipping_method_id":"\#(express)"}"#)
            _ = try far.expectProblem(422)
            #expect(far.fieldNames == ["shipping_method_id"])
            #expect(try await TestRows.stock(db, item: mug) == 20, "a refused checkout reserves nothing")

            // The cart is taxed as the order will be: the goods alone, and each option's total is
            // what the checkout with it charges.
            let quoted = try await client.send(.get, "/v1/cart?address_id=\(tokyo)", token: token).json
            #expect((quoted["tax_lines"] as? [[String: Any]])?.compactMap { ($0["tax"] as? [String: Any])?["amount"] as? Int } == [200])
            #expect((quoted["total"] as? [String: Any])?["amount"] as? Int == 2200 && quoted["prices_include_tax"] as? Bool == true)
            let standardOption = (quoted["shipping_options"] as? [[String: Any]])?.first { $0["name"] as? String == "Standard" }
            let quotedTotal = (standardOption?["total"] as? [String: Any])?["amount"] as? Int

            let paid = try await checkout(
                #"{"payment_method":"pm_card_visa","address_id":"\#(tokyo)","shipping_method_id":"\#(standard)"}"#)
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
            let order = try paid.decode(OrderModel.self)
            #expect(quotedTotal == Int(order.total.amount))
            #expect(order.subtotal.amount == 2200 && order.shippingFee.amount == 800 && order.total.amount == 3000)
            // Shipping is taxed at the standard rate with the lines: 3000 × 10 / 110 = 272.
            #expect(order.taxLines.map(\.taxable.amount) == [3000] && order.taxLines.map(\.tax.amount) == [272])
            let shipping = try #require(order.shipping)
            #expect(shipping.methodName == "Standard" && shipping.carrier == "Yamato" && shipping.methodID == standard)
            #expect(shipping.address.postalCode == "1000001" && shipping.address.region == "JP-13" && shipping.address.line2 == nil)

            // Nothing later changes the order: the address replaced, the rates and method deleted.
            let moved = Self.tokyo.replacingOccurrences(of: "千代田区", with: "港区")
            #expect(try await client.send(.put, "/v1/addresses/\(tokyo)", json: moved, token: token).status == .ok)
            #expect(try await client.send(.delete, "/v1/admin/shipping-methods/\(standard)", token: adminToken).status == .noContent)
            let again = try await client.send(.get, "/v1/orders/\(order.id)", token: token).decode(OrderModel.self)
            #expect(again.shipping?.address.city == "千代田区" && again.shippingFee.amount == 800 && again.total.amount == 3000)
        }
    }
}
