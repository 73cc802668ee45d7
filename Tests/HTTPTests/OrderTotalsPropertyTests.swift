import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import PropertyBased
import TestSupport
import Testing
import Translator

/// Random carts bought through the whole app on PostgreSQL and localstripe: the order's total
/// is its lines and its fee, each rate's tax is that rate's sum rounded once (shipping at the
/// standard rate), and what is stored is what was answered and charged.
@Suite("Order totals of random carts over HTTP")
struct OrderTotalsPropertyTests {
    @Test func anyCartIsTotalledAndTaxedOncePerRate() async throws {
        try await withApp { client, db in
            let line = zip(Gen.int64(in: 1...200_000), Gen.bool, Gen.int(in: 1...5))
            let carts = zip(line.array(of: 1...6), Gen.int64(in: 0...3000))
            await propertyCheck(count: 12, input: carts) { lines, fee in
                do {
                    try await Self.check(client, db, lines: lines, fee: fee)
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
    }

    static func check(
        _ client: any TestClientProtocol, _ db: TestDatabase, lines: [(Int64, Bool, Int)], fee: Int64
    ) async throws {
        let (_, token) = try await signedInCustomer(db)
        var classes: [String: String] = [:]
        for (price, reduced, quantity) in lines {
            let item = try await TestRows.insertItem(db, price: price, stock: 10)
            if reduced { try await db.pool.query("UPDATE items SET tax_class = 'reduced' WHERE id = $1", item) }
            classes[try await TestRows.variantID(of: item, db).uuidString.lowercased()] = reduced ? "reduced" : "standard"
            _ = try await client.send(.put, "/v1/cart/items/\(item)", json: #"{"quantity": \#(quantity)}"#, token: token)
        }
        let method = try await client.send(.post, "/v1/admin/shipping-methods", json: #"{"name":"M","carrier":"C"}"#, token: adminToken)
        let methodID = try #require(try method.json["id"] as? String)
        _ = try await client.send(
            .post, "/v1/admin/shipping-methods/\(methodID)/rates", json: #"{"country":"JP","fee":{"amount":\#(fee),"currency":"JPY"}}"#,
            token: adminToken)
        let address = try await client.send(
            .post, "/v1/addresses",
            json: #"{"recipient":"R","phone":"0312345678","postal_code":"1000001","country":"JP","region":"JP-13","city":"C","line1":"L"}"#,
            token: token)
        let addressID = try #require(try address.json["id"] as? String)
        let paid = try await client.send(
            .post, "/v1/orders",
            json: #"{"payment_method":"pm_card_visa","address_id":"\#(addressID)","shipping_method_id":"\#(methodID)"}"#,
            token: token, headers: [.init("Idempotency-Key")!: UUID().uuidString])
        #expect(paid.status == .created, "\(String(buffer: paid.body))")
        let order = try paid.decode(OrderModel.self)

        let subtotal = lines.reduce(Int64(0)) { $0 + $1.0 * Int64($1.2) }
        #expect(order.lines.allSatisfy { classes[$0.variantID] == $0.taxClass }, "each line keeps its item's class")
        #expect(order.subtotal.amount == subtotal && order.shippingFee.amount == fee && order.total.amount == subtotal + fee)
        for (taxClass, rate) in [("standard", Int128(10)), ("reduced", Int128(8))] {
            let taxable =
                order.lines.filter { classes[$0.variantID] == taxClass }.reduce(Int64(0)) { $0 + $1.lineTotal.amount }
                + (taxClass == "standard" ? fee : 0)
            let line = order.taxLines.first { $0.taxClass == taxClass }
            #expect((line != nil) == (taxable > 0 || order.lines.contains { classes[$0.variantID] == taxClass }))
            guard let line else { continue }
            #expect(line.taxable.amount == taxable)
            // Floored once: tax × (100 + r) <= taxable × r < (tax + 1) × (100 + r).
            let tax = Int128(line.tax.amount)
            #expect(tax * (100 + rate) <= Int128(taxable) * rate && Int128(taxable) * rate < (tax + 1) * (100 + rate))
        }
        let stored = try await db.pool.query(
            "SELECT total_amount, (SELECT sum(unit_price_amount * quantity) FROM order_lines WHERE order_id = $1)::bigint AS lines FROM orders WHERE id = $1",
            UUID(uuidString: order.id)!
        ).rows[0]
        #expect(try stored.decode("total_amount") as Int64 == order.total.amount && stored.decode("lines") as Int64 == subtotal)
        #expect(try await OrderTaxHTTPTests.charged(order.paymentIntentID) == order.total.amount)
    }
}
