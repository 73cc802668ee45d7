import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing
import Translator

/// From paid to delivered, on the real app, PostgreSQL and localstripe: the staff find orders,
/// ship them in parts and mark them delivered; every change is an event; a customer's cancel
/// and the staff's shipments of one order never both win.
@Suite("Fulfilment over HTTP")
struct FulfilmentHTTPTests {
    /// A paid order of 2 mugs and 1 pen; its id, the mug's and pen's variants, the customer's token.
    static func paidOrder(_ client: any TestClientProtocol, _ db: TestDatabase) async throws
        -> (order: String, mug: UUID, pen: UUID, token: String, customer: UUID)
    {
        let (customer, token) = try await signedInCustomer(db)
        let mug = try await TestRows.insertItem(db, sku: "MUG-\(UUID().uuidString.prefix(8))", name: "Mug", price: 1200, stock: 50)
        let pen = try await TestRows.insertItem(db, name: "Pen", price: 300, stock: 50)
        _ = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
        _ = try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 1}"#, token: token)
        let paid = try await client.send(
            .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: token,
            headers: [.init("Idempotency-Key")!: UUID().uuidString])
        #expect(paid.status == .created, "\(String(buffer: paid.body))")
        return (
            try #require(try paid.json["id"] as? String), try await TestRows.variantID(of: mug, db),
            try await TestRows.variantID(of: pen, db),
            token, customer
        )
    }

    static func ship(_ client: any TestClientProtocol, _ order: String, _ lines: String? = nil) async throws -> TestResponse {
        let body = #"{"carrier":"Yamato","tracking_number":"4321-8765-0001""# + (lines.map { #","lines":\#($0)"# } ?? "") + "}"
        return try await client.send(.post, "/v1/admin/orders/\(order)/shipments", json: body, token: adminToken)
    }

    @Test func paidToPartiallyShippedToShippedToDelivered() async throws {
        try await withApp { client, db in
            let (order, mug, pen, token, customer) = try await Self.paidOrder(client, db)
            let email = "\(customer)@example.com"
            // Another customer's order, which no query below may find.
            _ = try await Self.paidOrder(client, db)

            // The staff find it by its id (or the start of it, in any case), the customer's email
            // (any case), a SKU, and its status.
            for query in [order, String(order.prefix(8)), order.prefix(13).uppercased(), email.uppercased()] {
                let page = try await client.send(.get, "/v1/admin/orders?q=\(query)", token: adminToken)
                #expect(
                    (try page.json["data"] as? [[String: Any]])?.compactMap { ($0["order"] as? [String: Any])?["id"] as? String } == [order]
                )
            }
            let paid =
                try await client.send(.get, "/v1/admin/orders?status=paid&limit=100", token: adminToken).json["data"] as? [[String: Any]]
            #expect(paid?.contains { ($0["order"] as? [String: Any])?["id"] as? String == order } == true)
            try await client.send(.get, "/v1/admin/orders?status=sent", token: adminToken).expectProblem(422)
            try await client.send(.get, "/v1/admin/orders", token: token).expectProblem(401)

            // One mug first: partially shipped, and the customer can no longer cancel.
            let first = try await Self.ship(client, order, #"[{"variant_id":"\#(mug)","quantity":1}]"#)
            #expect(first.status == .created, "\(String(buffer: first.body))")
            let firstID = try #require(try first.json["id"] as? String)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "partially_shipped")
            let cancel = try await client.send(.post, "/v1/orders/\(order)/cancel", token: token)
            #expect(try cancel.expectProblem(409)["order_status"] as? String == "partially_shipped")
            // Past what is left of a line, or a variant the order lacks (by its id, as refunds
            // do): 422 by place.
            let beyond = try await Self.ship(
                client, order, #"[{"variant_id":"\#(pen)","quantity":1},{"variant_id":"\#(mug)","quantity":2}]"#)
            _ = try beyond.expectProblem(422)
            #expect(beyond.fieldNames == ["lines[1].quantity"])
            let stranger = try await Self.ship(client, order, #"[{"variant_id":"\#(UUID())","quantity":1}]"#)
            #expect(stranger.fieldNames == ["lines[0].variant_id"])

            // The rest: shipped; nothing is left to ship.
            let second = try await Self.ship(client, order)
            #expect(second.status == .created)
            let lines = try #require(try second.json["lines"] as? [[String: Any]])
            #expect(
                Set(lines.map { "\($0["variant_id"]!):\($0["quantity"]!)" }) == [
                    "\(mug.uuidString.lowercased()):1", "\(pen.uuidString.lowercased()):1",
                ])
            let secondID = try #require(try second.json["id"] as? String)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "shipped")
            #expect(try await Self.ship(client, order).expectProblem(409)["order_status"] as? String == "shipped")

            // Delivered once every shipment is.
            #expect(try await client.send(.post, "/v1/admin/shipments/\(firstID)/delivered", token: adminToken).status == .ok)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "shipped")
            try await client.send(.post, "/v1/admin/shipments/\(firstID)/delivered", token: adminToken).expectProblem(409)
            try await client.send(.post, "/v1/admin/shipments/\(UUID())/delivered", token: adminToken).expectProblem(404)
            let delivered = try await client.send(.post, "/v1/admin/shipments/\(secondID)/delivered", token: adminToken)
            #expect(try delivered.json["delivered_at"] is String)
            let mine = try await client.send(.get, "/v1/orders/\(order)", token: token).json
            #expect(mine["status"] as? String == "delivered")
            #expect((mine["shipments"] as? [[String: Any]])?.count == 2)

            // Every change is an event; the customer sees no actor, the staff do.
            let events = try #require(mine["events"] as? [[String: Any]])
            #expect(events.allSatisfy { $0["actor"] == nil })
            #expect(
                events.map { $0["type"] as! String } == [
                    "placed", "status_changed", "shipment_created", "fulfilment_changed", "shipment_created", "fulfilment_changed",
                    "shipment_delivered", "shipment_delivered", "fulfilment_changed",
                ])
            #expect((events.last?["data"] as? [String: String]) == ["from": "shipped", "to": "delivered"])
            let staff = try await client.send(.get, "/v1/admin/orders/\(order)", token: adminToken).json
            #expect(staff["customer_email"] as? String == email)
            let actors = (staff["events"] as? [[String: Any]])?.map { $0["actor"] as! String }
            #expect(actors?.first == "customer" && actors?.dropFirst(2).allSatisfy { $0 == "staff" } == true)
            try await client.send(.get, "/v1/admin/orders/\(UUID())", token: adminToken).expectProblem(404)
        }
    }

    /// A unit shipped and returned is not also taken off what is left to ship: the rest of the
    /// line still ships (it was refused, the customer having paid for it).
    @Test func aReturnedUnitLeavesTheRestOfItsLineToShip() async throws {
        try await withApp { client, db in
            let (order, mug, pen, token, _) = try await Self.paidOrder(client, db)
            let first = try await Self.ship(
                client, order, #"[{"variant_id":"\#(mug)","quantity":1},{"variant_id":"\#(pen)","quantity":1}]"#)
            let shipment = try #require(try first.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/shipments/\(shipment)/delivered", token: adminToken).status == .ok)
            let asked = try await ReturnHTTPTests.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":1}]"#)
            let id = try #require(try asked.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).status == .ok)
            let received = try await client.send(.post, "/v1/admin/returns/\(id)/received", json: #"{"restock":true}"#, token: adminToken)
            #expect(received.status == .ok, "\(String(buffer: received.body))")

            let rest = try await Self.ship(client, order)
            #expect(rest.status == .created, "\(String(buffer: rest.body))")
            #expect((try rest.json["lines"] as? [[String: Any]])?.map { $0["quantity"] as? Int } == [1])
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "shipped")
        }
    }

    /// A staff refund that restocks what has not shipped takes it off the order: nothing is left
    /// to ship, so the order is shipped, then delivered with its one shipment, never stuck.
    @Test func aRefundOfTheUnshippedRestLeavesNothingToShip() async throws {
        try await withApp { client, db in
            let (order, mug, pen, token, _) = try await Self.paidOrder(client, db)
            let first = try await Self.ship(client, order, #"[{"variant_id":"\#(pen)","quantity":1}]"#)
            let shipment = try #require(try first.json["id"] as? String)
            let body = #"{"reason":"other","restock":true,"lines":[{"variant_id":"\#(mug)","quantity":2}]}"#
            let refund = try await RefundHTTPTests.refund(client, order, body, key: "rest")
            #expect(refund.status == .created, "\(String(buffer: refund.body))")
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "shipped")
            #expect(try await Self.ship(client, order).expectProblem(409)["order_status"] as? String == "shipped")
            #expect(try await client.send(.post, "/v1/admin/shipments/\(shipment)/delivered", token: adminToken).status == .ok)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "delivered")
        }
    }

    /// The customer's own list narrows to a progress as the staff's does: a shipped order is
    /// `shipped`, not `paid`; a failed attempt is `payment_failed`.
    @Test func theCustomersOrdersNarrowToAStatus() async throws {
        try await withApp { client, db in
            let (shipped, _, _, token, _) = try await Self.paidOrder(client, db)
            #expect(try await Self.ship(client, shipped).status == .created)
            let pen = try await TestRows.insertItem(db, name: "Pen", price: 300, stock: 50)
            _ = try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 1}"#, token: token)
            let paid = try await client.send(
                .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: token,
                headers: [.init("Idempotency-Key")!: UUID().uuidString])
            let unshipped = try #require(try paid.json["id"] as? String)
            _ = try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 1}"#, token: token)
            let declined = try await client.send(
                .post, "/v1/orders", json: #"{"payment_method":"pm_card_chargeCustomerFail"}"#, token: token,
                headers: [.init("Idempotency-Key")!: UUID().uuidString])
            let failed = try #require(try declined.expectProblem(402)["order_id"] as? String)
            func ids(_ query: String) async throws -> [String] {
                let page = try await client.send(.get, "/v1/orders\(query)", token: token).json
                return (page["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
            #expect(try await ids("").count == 3)
            #expect(try await ids("?status=shipped") == [shipped])
            #expect(try await ids("?status=paid") == [unshipped], "paid and not shipped yet")
            #expect(try await ids("?status=payment_failed") == [failed])
            #expect(try await ids("?status=delivered").isEmpty)
            try await client.send(.get, "/v1/orders?status=lost", token: token).expectProblem(422)
        }
    }

    @Test func concurrentShipmentsOfTheWholeOrderShipItOnce() async throws {
        try await withApp { client, db in
            let (order, _, _, _, _) = try await Self.paidOrder(client, db)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { Int(try await Self.ship(client, order).status.code) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201] + Array(repeating: 409, count: 7))
            let shipped = try await db.pool.query(
                "SELECT sum(quantity)::int AS ordered, sum(shipped_quantity)::int AS shipped FROM order_lines WHERE order_id = $1",
                UUID(uuidString: order)!
            ).rows[0]
            #expect(try shipped.decode("ordered") as Int == 3 && shipped.decode("shipped") as Int == 3)
        }
    }

    /// A customer's cancel and a shipment racing for one paid order: one wins, the other gets 409,
    /// and a cancelled order has shipped nothing.
    @Test func aCancelAndAShipmentNeverBothWin() async throws {
        try await withApp { client, db in
            for _ in 0..<4 {
                let (order, _, _, token, _) = try await Self.paidOrder(client, db)
                async let cancel = client.send(.post, "/v1/orders/\(order)/cancel", token: token)
                async let shipment = Self.ship(client, order)
                let (cancelled, shipped) = (try await cancel, try await shipment)
                let cancelWon = [200, 202].contains(Int(cancelled.status.code))
                #expect(cancelWon != (shipped.status == .created), "cancel \(cancelled.status), ship \(shipped.status)")
                #expect(cancelWon ? shipped.status == .conflict : cancelled.status == .conflict)
                let units = try await db.pool.query(
                    "SELECT sum(shipped_quantity)::int AS n FROM order_lines WHERE order_id = $1", UUID(uuidString: order)!
                ).rows[0]
                #expect(try units.decode("n") as Int == (cancelWon ? 0 : 3))
            }
        }
    }
}
