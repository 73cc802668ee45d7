import Domain
import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing
import Translator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Consumption tax at checkout, on the real app, PostgreSQL and localstripe: each rate's tax is
/// computed once per order, kept with it, and what is charged is the order's total.
@Suite("Consumption tax on orders over HTTP")
struct OrderTaxHTTPTests {
    /// A mug at the standard rate and tea at the reduced one, both in the customer's cart.
    static func cart(_ client: any TestClientProtocol, _ db: TestDatabase, _ token: String, mug: Int64, tea: Int64) async throws {
        let mugID = try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: mug, stock: 10)
        let teaID = try await TestRows.insertItem(db, name: "Sencha", category: "food", price: tea, stock: 10)
        try await db.pool.query("UPDATE items SET tax_class = 'reduced' WHERE id = $1", teaID)
        _ = try await client.send(.put, "/v1/cart/items/\(mugID)", json: #"{"quantity": 2}"#, token: token)
        let cart = try await client.send(.put, "/v1/cart/items/\(teaID)", json: #"{"quantity": 3}"#, token: token)
        let classes = (try cart.json["lines"] as? [[String: Any]] ?? []).compactMap { $0["tax_class"] as? String }
        #expect(classes.sorted() == ["reduced", "standard"])
    }

    static func checkout(_ client: any TestClientProtocol, _ token: String) async throws -> OrderModel {
        let paid = try await client.send(
            .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: token,
            headers: [.init("Idempotency-Key")!: UUID().uuidString])
        #expect(paid.status == .created, "\(String(buffer: paid.body))")
        return try paid.decode(OrderModel.self)
    }

    /// The amount the provider was asked to charge for the order's payment.
    static func charged(_ paymentIntentID: String?) async throws -> Int64? {
        let base = try #require(ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"])
        var request = URLRequest(url: URL(string: base + "/v1/payment_intents/" + (try #require(paymentIntentID)))!)
        request.setValue("Bearer sk_test_storefront", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["amount"] as? Int64
    }

    @Test func taxIncludedPricesShowTheTaxPerRate() async throws {
        let issuer = InvoiceIssuer(name: "Storefront K.K.", registrationNumber: "T1234567890123")
        try await withApp(configure: { $0.invoiceIssuer = issuer }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            try await Self.cart(client, db, token, mug: 1100, tea: 540)
            let order = try await Self.checkout(client, token)
            #expect(order.pricesIncludeTax && order.subtotal.amount == 3820 && order.shippingFee.amount == 0)
            // 2200 × 10 / 110 = 200; 1620 × 8 / 108 = 120.
            #expect(order.taxLines.map(\.taxClass) == ["standard", "reduced"])
            #expect(order.taxLines.map(\.taxable.amount) == [2200, 1620] && order.taxLines.map(\.tax.amount) == [200, 120])
            #expect(order.taxLines.map(\.ratePercent) == [10, 8])
            #expect(order.total.amount == 3820)
            #expect(try await Self.charged(order.paymentIntentID) == 3820)
            // The item's class changing later changes nothing of the order.
            try await db.pool.query("UPDATE items SET tax_class = 'standard'")
            let again = try await client.send(.get, "/v1/orders/\(order.id)", token: token).decode(OrderModel.self)
            #expect(again.taxLines.map(\.tax.amount) == [200, 120] && again.lines.map(\.taxClass).sorted() == ["reduced", "standard"])

            // The qualified invoice: the issuer's number, reduced-rate lines marked, tax per rate.
            let invoice = try await client.send(.get, "/v1/orders/\(order.id)/invoice", token: token)
            #expect(invoice.status == .ok, "\(String(buffer: invoice.body))")
            let body = try invoice.json
            #expect(body["registration_number"] as? String == "T1234567890123" && body["issuer_name"] as? String == "Storefront K.K.")
            let lines = try #require(body["lines"] as? [[String: Any]])
            #expect(Set(lines.map { "\($0["name"]!):\(($0["reduced_rate"] as? Bool)!)" }) == ["Mug:false", "Sencha:true"])
            #expect((body["tax_lines"] as? [[String: Any]])?.compactMap { ($0["tax"] as? [String: Any])?["amount"] as? Int } == [200, 120])
            #expect((body["total"] as? [String: Any])?["amount"] as? Int == 3820)
            let (_, other) = try await signedInCustomer(db)
            try await client.send(.get, "/v1/orders/\(order.id)/invoice", token: other).expectProblem(404)
        }
    }

    @Test func noInvoiceWithoutTheIssuersNumberOrBeforePayment() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            try await Self.cart(client, db, token, mug: 1100, tea: 540)
            let order = try await Self.checkout(client, token)
            try await client.send(.get, "/v1/orders/\(order.id)/invoice", token: token).expectProblem(503)
        }
        let issuer = InvoiceIssuer(name: "Storefront K.K.", registrationNumber: "T1234567890123")
        try await withApp(configure: { $0.invoiceIssuer = issuer }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            try await Self.cart(client, db, token, mug: 1100, tea: 540)
            let declined = try await client.send(
                .post, "/v1/orders", json: #"{"payment_method":"pm_card_chargeCustomerFail"}"#, token: token,
                headers: [.init("Idempotency-Key")!: UUID().uuidString])
            let id = try #require(try declined.json["order_id"] as? String)
            #expect(
                try await client.send(.get, "/v1/orders/\(id)/invoice", token: token).expectProblem(409)["order_status"] as? String
                    == "payment_failed")
        }
    }

    @Test func taxExcludedPricesAddTheTaxToWhatIsCharged() async throws {
        try await withApp(configure: { $0.taxPolicy = TaxPolicy(pricesIncludeTax: false, rounding: .floor) }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            try await Self.cart(client, db, token, mug: 999, tea: 333)
            let order = try await Self.checkout(client, token)
            // 1998 × 10 % = 199.8 -> 199; 999 × 8 % = 79.92 -> 79.
            #expect(!order.pricesIncludeTax && order.subtotal.amount == 2997)
            #expect(order.taxLines.map(\.tax.amount) == [199, 79])
            #expect(order.total.amount == 2997 + 199 + 79)
            #expect(try await Self.charged(order.paymentIntentID) == 2997 + 199 + 79)

            // Refunds by lines give back their tax too: one mug, 999 + 99; then the rest, whose
            // tax is what is left of each rate's (199 - 99 for the mug, 79 for the tea), so the
            // two refund exactly what was charged and the order is refunded.
            let mug = try #require(order.lines.first { $0.taxClass == "standard" }?.variantID)
            let tea = try #require(order.lines.first { $0.taxClass == "reduced" }?.variantID)
            func refund(_ lines: String, key: String) async throws -> [String: Any] {
                let body = #"{"reason":"other","restock":false,"lines":\#(lines)}"#
                return try await RefundHTTPTests.refund(client, order.id, body, key: key).json
            }
            let first = try await refund(#"[{"variant_id":"\#(mug)","quantity":1}]"#, key: "one-mug")
            #expect(first.money("amount") == "1098 JPY")
            let rest = try await refund(#"[{"variant_id":"\#(mug)","quantity":1},{"variant_id":"\#(tea)","quantity":3}]"#, key: "rest")
            #expect(rest.money("amount") == "\(999 + 100 + 999 + 79) JPY")
            let after = try await client.send(.get, "/v1/orders/\(order.id)", token: token).json
            #expect(after["status"] as? String == "refunded" && after.money("refunded") == "3275 JPY")
        }
    }
}
