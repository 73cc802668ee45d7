import Foundation
import Gateway
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing

/// Returns on the real app, PostgreSQL and localstripe: asked for by the customer once shipped,
/// decided by the staff, refunded and restocked on receipt; racing requests never return one
/// unit twice, and racing receipts refund once.
@Suite("Returns over HTTP")
struct ReturnHTTPTests {
    /// A shipped order of 2 mugs and 1 pen.
    static func shippedOrder(_ client: any TestClientProtocol, _ db: TestDatabase) async throws
        -> (order: String, mug: UUID, pen: UUID, token: String)
    {
        let (order, mug, pen, token, _) = try await FulfilmentHTTPTests.paidOrder(client, db)
        #expect(try await FulfilmentHTTPTests.ship(client, order).status == .created)
        return (order, mug, pen, token)
    }

    static func stock(of variant: UUID, _ db: TestDatabase) async throws -> Int {
        try await db.pool.query("SELECT stock FROM item_variants WHERE id = $1", variant).rows[0].decode("stock")
    }

    static func ask(_ client: any TestClientProtocol, _ order: String, _ token: String, _ lines: String) async throws -> TestResponse {
        try await client.send(
            .post, "/v1/orders/\(order)/returns", json: #"{"lines":\#(lines),"reason":"too small"}"#, token: token)
    }

    @Test func askedApprovedReceivedRefundedAndRestocked() async throws {
        try await withApp { client, db in
            // Not shipped yet: a return is refused (the customer cancels instead).
            let (unshipped, mugUnshipped, _, token0, _) = try await FulfilmentHTTPTests.paidOrder(client, db)
            let early = try await Self.ask(client, unshipped, token0, #"[{"variant_id":"\#(mugUnshipped)","quantity":1}]"#)
            #expect(try early.expectProblem(409)["order_status"] as? String == "paid")

            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            let mugItem: UUID = try await db.pool.query("SELECT item_id FROM item_variants WHERE id = $1", mug).rows[0].decode("item_id")
            let stockBefore = try await TestRows.stock(db, item: mugItem)
            let beyond = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":3}]"#)
            _ = try beyond.expectProblem(422)
            #expect(beyond.fieldNames == ["lines[0].quantity"])
            let (_, other) = try await signedInCustomer(db)
            try await Self.ask(client, order, other, #"[{"variant_id":"\#(mug)","quantity":1}]"#).expectProblem(404)

            let asked = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":1}]"#)
            #expect(asked.status == .created, "\(String(buffer: asked.body))")
            let id = try #require(try asked.json["id"] as? String)
            #expect(try asked.json["status"] as? String == "requested")
            // Received before it is approved: 409.
            try await client.send(.post, "/v1/admin/returns/\(id)/received", json: #"{"restock":true}"#, token: adminToken)
                .expectProblem(409)
            #expect(
                try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).json["status"] as? String == "approved")
            try await client.send(.post, "/v1/admin/returns/\(id)/refuse", token: adminToken).expectProblem(409)

            let received = try await client.send(.post, "/v1/admin/returns/\(id)/received", json: #"{"restock":true}"#, token: adminToken)
            #expect(received.status == .ok, "\(String(buffer: received.body))")
            #expect(try received.json["status"] as? String == "received" && received.json["refund_id"] is String)
            #expect(try received.json["restock"] as? Bool == true)
            let mine = try await client.send(.get, "/v1/orders/\(order)", token: token).json
            #expect(mine.money("refunded") == "1200 JPY")
            #expect(try await TestRows.stock(db, item: mugItem) == stockBefore + 1)
            let types = (mine["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String } ?? []
            #expect(["return_requested", "return_approved", "return_received"].allSatisfy(types.contains))
            // The customer sees where each return stands; another customer sees no such order.
            let listed = try await client.send(.get, "/v1/orders/\(order)/returns", token: token).json["data"] as? [[String: Any]]
            #expect(listed?.map { $0["status"] as? String } == ["received"] && listed?.first?["id"] as? String == id)
            try await client.send(.get, "/v1/orders/\(order)/returns", token: other).expectProblem(404)
            // That unit is returned; the other mug still may be.
            try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":2}]"#).expectProblem(422)
            #expect(try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":1}]"#).status == .created)
        }
    }

    /// A refund the provider left pending at the receipt and failed later: the return is
    /// approved again, with an event, as one whose refund fails at once stays. It showed
    /// `received` with a refund that never came.
    @Test func aRefundThatFailsAfterTheReceiptApprovesTheReturnAgain() async throws {
        try await withApp { client, db in
            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            let asked = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":1}]"#)
            let id = try #require(try asked.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).status == .ok)
            let received = try await client.send(.post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false}"#, token: adminToken)
            let refund = try #require(UUID(uuidString: try received.json["refund_id"] as? String ?? ""))
            // localstripe's refunds succeed at once: as if the provider had answered pending, then failed.
            try await db.pool.query("UPDATE refunds SET status = 'pending' WHERE id = $1", refund)
            _ = try await PostgresRefundStore(database: db.pool).recordRefund(
                id: refund, status: .failed, providerRefundID: nil, at: Date())
            let listed = try await client.send(.get, "/v1/orders/\(order)/returns", token: token).json["data"] as? [[String: Any]]
            #expect(listed?.first?["status"] as? String == "approved")
            let mine = try await client.send(.get, "/v1/orders/\(order)", token: token).json
            #expect(mine.money("refunded") == "0 JPY")
            let types = (mine["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String } ?? []
            #expect(types.last == "return_refund_failed", "\(types)")
        }
    }

    /// The staff's queue: every customer's returns, newest first, by status, paged.
    @Test func theStaffListReturnsByStatusNewestFirst() async throws {
        try await withApp { client, db in
            let (order, mug, pen, token) = try await Self.shippedOrder(client, db)
            let first = try #require(
                try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":1}]"#).json["id"] as? String)
            let second = try #require(
                try await Self.ask(client, order, token, #"[{"variant_id":"\#(pen)","quantity":1}]"#).json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/returns/\(first)/approve", token: adminToken).status == .ok)

            func ids(_ query: String) async throws -> (ids: [String], next: String?) {
                let page = try await client.send(.get, "/v1/admin/returns\(query)", token: adminToken).json
                return ((page["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [], page["next_cursor"] as? String)
            }
            #expect(try await ids("").ids == [second, first])
            #expect(try await ids("?status=requested").ids == [second])
            #expect(try await ids("?status=approved").ids == [first])
            #expect(try await ids("?status=received").ids.isEmpty)
            let (one, next) = try await ids("?limit=1")
            #expect(one == [second])
            #expect(try await ids("?limit=1&cursor=\(try #require(next))").ids == [first])
            try await client.send(.get, "/v1/admin/returns?status=lost", token: adminToken).expectProblem(422)
            try await client.send(.get, "/v1/admin/returns", token: token).expectProblem(401)
        }
    }

    /// A return of nothing is refused; one stored with no lines (before requests needed one) is
    /// received as no refund at all. Its refund, of no lines and no amount, had been of the whole
    /// remainder of the order.
    @Test func aReturnWithoutLinesRefundsNothing() async throws {
        try await withApp { client, db in
            let (order, _, _, token) = try await Self.shippedOrder(client, db)
            let empty = try await Self.ask(client, order, token, "[]")
            #expect(
                try empty.expectProblem(422)["errors"] as? [[String: String]] == [
                    ["field": "lines", "message": "must have at least 1 entry"]
                ])

            let id = UUID()
            _ = try await db.pool.query(
                "INSERT INTO returns (id, order_id, status, reason, created_at, updated_at) VALUES ($1, $2, 'approved', 'x', now(), now())",
                id, UUID(uuidString: order)!)
            let received = try await client.send(.post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false}"#, token: adminToken)
            #expect(received.fieldNames == ["lines"], "\(String(buffer: received.body))")
            try received.expectProblem(422)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json.money("refunded") == "0 JPY")
            #expect(try await db.pool.query("SELECT 1 FROM refunds").rows.isEmpty)
        }
    }

    /// Units the staff refunded already are not refunded again by a return of them: its receipt
    /// answers 422 naming the line and refunds nothing.
    @Test func aReturnOfUnitsRefundedAlreadyRefundsNothing() async throws {
        try await withApp { client, db in
            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            let staff =
                #"{"amount": {"amount": 100, "currency": "JPY"}, "reason": "other", "restock": true, "lines": [{"variant_id": "\#(mug)", "quantity": 2}]}"#
            #expect(try await RefundHTTPTests.refund(client, order, staff, key: "staff").status == .created)
            let asked = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":2}]"#)
            let id = try #require(try asked.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).status == .ok)
            let received = try await client.send(.post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false}"#, token: adminToken)
            let problem = try received.expectProblem(422)
            #expect(problem["type"] as? String == "/problems/lines-not-refundable")
            #expect(received.fieldNames == ["lines[0].quantity"], "\(String(buffer: received.body))")
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json.money("refunded") == "100 JPY")

            // Received without a refund: the staff's refund took these units, and no other
            // return holds them. Not restocked then (the staff's refund did, or the staff will).
            let stock = try await Self.stock(of: mug, db)
            let restocking = try await client.send(
                .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":true,"refund":false}"#, token: adminToken)
            #expect(restocking.fieldNames == ["restock"], "\(String(buffer: restocking.body))")
            let kept = try await client.send(
                .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false,"refund":false}"#, token: adminToken)
            #expect(kept.status == .ok, "\(String(buffer: kept.body))")
            #expect(try kept.json["status"] as? String == "received" && kept.json["refund_id"] is NSNull)
            #expect(try await Self.stock(of: mug, db) == stock)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json.money("refunded") == "100 JPY")
        }
    }

    /// Without a refund, a return is received only for units refunds took that no other return
    /// holds: units never refunded, or refunded and matched with another return already, are
    /// refused, so no customer goes unpaid for what came back.
    @Test func aReturnIsReceivedWithoutARefundOnlyForUnitsRefundsTookAndNoOtherReturnHolds() async throws {
        try await withApp { client, db in
            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            func approvedReturn(_ quantity: Int) async throws -> String {
                let asked = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":\#(quantity)}]"#)
                let id = try #require(try asked.json["id"] as? String, "\(String(buffer: asked.body))")
                #expect(try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).status == .ok)
                return id
            }
            func receive(_ id: String, refund: Bool) async throws -> TestResponse {
                try await client.send(
                    .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false,"refund":\#(refund)}"#, token: adminToken)
            }
            let first = try await approvedReturn(1)
            let never = try await receive(first, refund: false)
            #expect(try never.expectProblem(422)["type"] as? String == "/problems/lines-not-refunded")
            #expect(never.fieldNames == ["lines[0].quantity"], "\(String(buffer: never.body))")

            // One unit refunded by the staff closes one return without a refund, not two.
            let staff =
                #"{"amount": {"amount": 1200, "currency": "JPY"}, "reason": "other", "restock": false, "lines": [{"variant_id": "\#(mug)", "quantity": 1}]}"#
            #expect(try await RefundHTTPTests.refund(client, order, staff, key: "goodwill").status == .created)
            #expect(try await receive(first, refund: false).status == .ok)
            let second = try await approvedReturn(1)
            _ = try (try await receive(second, refund: false)).expectProblem(422)
            // Received with its refund, it is paid back as any return.
            #expect(try await receive(second, refund: true).status == .ok)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json.money("refunded") == "2400 JPY")
        }
    }

    /// An approved return of an order the staff then refunded in full by amount (no lines) is
    /// received without a refund: every unit is paid back, so it does not stay approved for good.
    @Test func aReturnOfAnOrderRefundedInFullIsReceivedWithoutARefund() async throws {
        try await withApp { client, db in
            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            let asked = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":2}]"#)
            let id = try #require(try asked.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).status == .ok)
            let all = #"{"reason": "other", "restock": false}"#
            #expect(try await RefundHTTPTests.refund(client, order, all, key: "all").status == .created)
            #expect(try await client.send(.get, "/v1/orders/\(order)", token: token).json["status"] as? String == "refunded")
            let withRefund = try await client.send(
                .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false,"refund":true}"#, token: adminToken)
            #expect(try withRefund.expectProblem(409)["order_status"] as? String == "refunded")
            let received = try await client.send(
                .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false,"refund":false}"#, token: adminToken)
            #expect(received.status == .ok, "\(String(buffer: received.body))")
            #expect(try received.json["status"] as? String == "received")
        }
    }

    /// Receipts of one return with and without a refund, racing: one receives it, the others are
    /// refused, none fails, and the customer is refunded at most once. No unit was refunded
    /// before, so only a receipt with its refund (and restock) can win: one without a refund
    /// must not count the racing receipt's refund as an earlier one, and a refund is never made
    /// for a return another receipt closed (the attacker's "refunded and restocked, answered 409").
    @Test func receiptsWithAndWithoutARefundRacingReceiveOnce() async throws {
        try await withApp { client, db in
            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            let stockBefore = try await Self.stock(of: mug, db)
            let asked = try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":2}]"#)
            let id = try #require(try asked.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken).status == .ok)
            // Each answer's status and, for the one that received it, what it says it did.
            let answers = try await withThrowingTaskGroup(of: (status: Int, did: String?).self) { group in
                for attempt in 0..<8 {
                    group.addTask {
                        let refund = attempt % 2 == 0
                        let answer = try await client.send(
                            .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":\#(refund),"refund":\#(refund)}"#,
                            token: adminToken)
                        guard answer.status == .ok else { return (Int(answer.status.code), nil) }
                        let body = try answer.json
                        return (200, "refunded: \(body["refund_id"] is String), restocked: \(body["restock"] as? Bool == true)")
                    }
                }
                return try await group.reduce(into: [(status: Int, did: String?)]()) { $0.append($1) }
            }
            let statuses = answers.map(\.status)
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.allSatisfy { [200, 409, 422].contains($0) }, "\(statuses)")
            #expect(answers.compactMap(\.did) == ["refunded: true, restocked: true"])
            let refunded = try await client.send(.get, "/v1/orders/\(order)", token: token).json.money("refunded")
            #expect(refunded == "2400 JPY", "the return's own refund, once")
            #expect(try await Self.stock(of: mug, db) == stockBefore + 2, "restocked once")
        }
    }

    @Test func racingRequestsNeverReturnAUnitTwiceAndRacingReceiptsRefundOnce() async throws {
        try await withApp { client, db in
            let (order, mug, _, token) = try await Self.shippedOrder(client, db)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        Int(try await Self.ask(client, order, token, #"[{"variant_id":"\#(mug)","quantity":2}]"#).status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201] + Array(repeating: 422, count: 5))
            let id: UUID = try await db.pool.query("SELECT id FROM returns WHERE order_id = $1", UUID(uuidString: order)!).rows[0]
                .decode("id")
            _ = try await client.send(.post, "/v1/admin/returns/\(id)/approve", token: adminToken)
            let receipts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        Int(
                            try await client.send(
                                .post, "/v1/admin/returns/\(id)/received", json: #"{"restock":false}"#, token: adminToken
                            ).status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(receipts.filter { $0 == 200 }.count == 1 && receipts.allSatisfy { $0 == 200 || $0 == 409 }, "\(receipts)")
            let refunds = try await db.pool.query(
                "SELECT count(*)::int AS n, sum(amount)::int AS amount FROM refunds WHERE order_id = $1", UUID(uuidString: order)!
            ).rows[0]
            #expect(try refunds.decode("n") as Int == 1 && refunds.decode("amount") as Int == 2400)
        }
    }
}
