import Domain
import Foundation
import Gateway
import HTTP
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
import Postgres
import Scenes
import TestSupport
import Testing
import Translator

/// Staff refunds end to end: the whole app on real PostgreSQL, refunding at a real localstripe,
/// which bounds nothing (it refunds more than was captured): every bound here is the database's.
@Suite("Staff refunds over HTTP")
struct RefundHTTPTests {
    static func refund(_ client: any TestClientProtocol, _ order: String, _ json: String, key: String?) async throws -> TestResponse {
        try await client.send(
            .post, "/v1/admin/orders/\(order)/refunds", json: json, token: adminToken,
            headers: key.map { [.init("Idempotency-Key")!: $0] } ?? [:])
    }

    /// A paid order of `quantity` mugs at 1200 JPY: its id, its PaymentIntent, the mug, the customer's token.
    static func paidOrder(_ client: any TestClientProtocol, _ db: TestDatabase, quantity: Int = 2) async throws
        -> (order: String, intent: String, mug: UUID, token: String)
    {
        let (_, token) = try await signedInCustomer(db)
        let mug = try await CheckoutHTTPTests.item(db, stock: 5)
        try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": \#(quantity)}"#, token: token)
        let paid = try await CheckoutHTTPTests.checkout(client, token, key: "checkout").json
        #expect(paid["status"] as? String == "paid")
        return (try #require(paid["id"] as? String), try #require(paid["payment_intent_id"] as? String), mug, token)
    }

    /// What localstripe refunded of the payment, refund by refund.
    static func providerRefunds(_ intent: String) async throws -> [Int64] {
        let url = try ReconcileHTTPTests.livePayments()
        return try await StripePaymentGateway(baseURL: url, secretKey: "sk_test_storefront").refunds(paymentID: intent)
            .map(\.amount.amount).sorted()
    }

    /// A pool of its own for an app the test builds itself: the app shuts its pool down at the end.
    static func pool(_ db: TestDatabase) -> PostgresPool { PostgresPool(.init(connection: .init(conninfo: db.url))) }

    static func order(_ client: any TestClientProtocol, _ id: String, _ token: String) async throws -> [String: Any] {
        try await client.send(.get, "/v1/orders/\(id)", token: token).json
    }

    @Test func aFullRefundOfTheLinesRestocksThemAndRefundsTheOrder() async throws {
        try await withApp { client, db in
            let (order, intent, mug, token) = try await Self.paidOrder(client, db)
            let variant = try await TestRows.variantID(of: mug, db)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)
            let body = #"{"reason": "requested_by_customer", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 2}]}"#
            let refunded = try await Self.refund(client, order, body, key: "r1")
            #expect(refunded.status == .created, "\(String(buffer: refunded.body))")
            let refund = try refunded.json
            #expect(
                Set(refund.keys) == [
                    "id", "order_id", "amount", "reason", "restock", "lines", "status", "provider_refund_id", "created_at",
                ])
            let typed = try refunded.decode(RefundModel.self)
            #expect(typed.amount.amount == 2400 && typed.status == "succeeded" && typed.restock && typed.reason == "requested_by_customer")
            #expect(typed.providerRefundID?.hasPrefix("re_") == true && typed.lines.map(\.quantity) == [2])
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
            #expect(try await Self.providerRefunds(intent) == [2400])

            let seen = try await Self.order(client, order, token)
            #expect(seen["status"] as? String == "refunded")
            #expect(seen.money("refunded") == "2400 JPY")
            let listed = try #require(seen["refunds"] as? [[String: Any]])
            #expect(listed.map { Set($0.keys) } == [["id", "amount", "status", "created_at"]])
            #expect(listed.first?["id"] as? String == refund["id"] as? String)
            // The staff asked for it, so the staff made the order refunded.
            let staff = try await client.send(.get, "/v1/admin/orders/\(order)", token: adminToken).json
            let change = (staff["events"] as? [[String: Any]])?.last { ($0["data"] as? [String: String])?["to"] == "refunded" }
            #expect(change?["actor"] as? String == "staff")

            let again = try await Self.refund(
                client, order, #"{"amount": {"amount": 1, "currency": "JPY"}, "reason": "other", "restock": false}"#, key: "r2")
            #expect(try again.expectProblem(409)["order_status"] as? String == "refunded")
            try await client.send(.post, "/v1/orders/\(order)/cancel", token: token).expectProblem(409)
            #expect(try await Self.providerRefunds(intent) == [2400])
        }
    }

    @Test func twoPartialRefundsThenOneOverTheLimitIsRefused() async throws {
        try await withApp { client, db in
            let (order, intent, _, token) = try await Self.paidOrder(client, db)
            for key in ["p1", "p2"] {
                let partial = try await Self.refund(
                    client, order, #"{"amount": {"amount": 1000, "currency": "JPY"}, "reason": "other", "restock": false}"#, key: key)
                #expect(partial.status == .created, "\(String(buffer: partial.body))")
            }
            #expect(try await Self.order(client, order, token)["status"] as? String == "paid")
            let over = try await Self.refund(
                client, order, #"{"amount": {"amount": 401, "currency": "JPY"}, "reason": "other", "restock": false}"#, key: "p3")
            let problem = try over.expectProblem(409)
            #expect(problem.money("remaining") == "400 JPY")
            #expect(over.fieldNames == ["amount.amount"])
            #expect(try await Self.providerRefunds(intent) == [1000, 1000], "nothing charged back beyond")

            // No amount: the rest.
            let rest = try await Self.refund(client, order, #"{"reason": "other", "restock": false}"#, key: "p4")
            #expect((try rest.json["amount"] as? [String: Any])?["amount"] as? Int == 400)
            let seen = try await Self.order(client, order, token)
            #expect(seen["status"] as? String == "refunded" && seen.money("refunded") == "2400 JPY")
            #expect(try await Self.providerRefunds(intent) == [400, 1000, 1000])
        }
    }

    @Test func concurrentRefundsRaceForTheRemainderAndTheDatabaseLetsTwoWin() async throws {
        try await withApp { client, db in
            let (order, intent, _, _) = try await Self.paidOrder(client, db)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<5 {
                    group.addTask {
                        let body = #"{"amount": {"amount": 1000, "currency": "JPY"}, "reason": "duplicate", "restock": false}"#
                        return Int(try await Self.refund(client, order, body, key: "race-\(index)").status.code)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted()
            }
            #expect(statuses == [201, 201, 409, 409, 409])
            #expect(try await Self.providerRefunds(intent) == [1000, 1000])
            let reserved: Int64 = try await db.pool.query("SELECT refunded_amount FROM orders WHERE id = $1::uuid", order).rows[0]
                .decode("refunded_amount")
            #expect(reserved == 2000)
        }
    }

    @Test(arguments: 0..<3)
    func aCancelRacingAStaffRefundNeverRefundsMoreThanWasCaptured(round: Int) async throws {
        try await withApp { client, db in
            let (order, intent, mug, token) = try await Self.paidOrder(client, db)
            let variant = try await TestRows.variantID(of: mug, db)
            async let cancel = client.send(.post, "/v1/orders/\(order)/cancel", token: token)
            async let refund = Self.refund(
                client, order,
                #"{"amount": {"amount": 1000, "currency": "JPY"}, "reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 1}]}"#,
                key: "race")
            let statuses = try await [Int(cancel.status.code), Int(refund.status.code)]
            let refunded = try await Self.providerRefunds(intent)
            #expect(refunded.reduce(0, +) <= 2400, "answers \(statuses)")
            // Whoever came second either refunded what was left or was refused.
            #expect(refunded == [1000, 1400] || refunded == [2400] || refunded == [1000], "answers \(statuses)")
            let seen = try await Self.order(client, order, token)
            #expect(seen.money("refunded") == "\(refunded.reduce(0, +)) JPY")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == (refunded == [1000] ? 4 : 5))
        }
    }

    @Test func aRefundEventSettlesAPendingStaffRefundFromTheProvider() async throws {
        let url = try ReconcileHTTPTests.livePayments()
        try await TestDatabase.with { db in
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.payment = ("http://127.0.0.1:\(freePort())", "sk_test_storefront")
            config.paymentTimeout = .seconds(1)
            let (order, intent, mug, _) = try await Self.paidOrder(db, url: url)
            let variant = try await TestRows.variantID(of: mug, db)
            let pending = try await buildApplication(AppResources(config: config, pool: Self.pool(db), logger: .init(label: "test"))).test(
                .router
            ) {
                client in
                let body = #"{"reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 2}]}"#
                return try await Self.refund(client, order, body, key: "hook").status
            }
            #expect(pending == .accepted)

            // The provider is reachable now: its own deadline, not the 1 s that made the first
            // call give up (a retry after a timeout would refund twice at localstripe, which
            // ignores Idempotency-Key; Stripe replays the first answer).
            config.payment = (url, "sk_test_storefront")
            config.paymentTimeout = AppConfig(databaseURL: db.url).paymentTimeout
            config.paymentWebhookSecret = PaymentWebhookHTTPTests.secret
            let delivered = try await buildApplication(AppResources(config: config, pool: Self.pool(db), logger: .init(label: "test")))
                .test(.router) {
                    client in
                    let event =
                        #"{"id":"evt_\#(UUID().uuidString.prefix(8))","type":"charge.refunded","data":{"object":{"id":"ch_1","object":"charge","payment_intent":"\#(intent)"}}}"#
                    let answer = try await PaymentWebhookHTTPTests.deliver(client, event, signature: PaymentWebhookHTTPTests.signed(event))
                    return (answer.status, try await PaymentWebhookHTTPTests.eventually(db, order: order, is: "refunded"))
                }
            #expect(delivered.0 == .ok && delivered.1)
            let status: String = try await db.pool.query("SELECT status FROM refunds").rows[0].decode("status")
            #expect(status == "succeeded")
            #expect(try await Self.providerRefunds(intent) == [2400])
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }

    /// `paidOrder` through an app of its own that pays at `url`.
    static func paidOrder(_ db: TestDatabase, url: String) async throws -> (order: String, intent: String, mug: UUID, token: String) {
        var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
        config.payment = (url, "sk_test_storefront")
        config.checkoutDeadline = .seconds(60)  // as `withApp`: localstripe is slow under the whole suite
        return try await buildApplication(AppResources(config: config, pool: Self.pool(db), logger: .init(label: "test")))
            .test(.router) { client in try await Self.paidOrder(client, db) }
    }

    @Test func aReplayedKeyAnswersTheFirstRefundAndRestocksOnce() async throws {
        try await withApp { client, db in
            let (order, intent, mug, _) = try await Self.paidOrder(client, db)
            let variant = try await TestRows.variantID(of: mug, db)
            let body = #"{"reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 1}]}"#
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<3 { group.addTask { try await Self.refund(client, order, body, key: "same") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let ids = Set(try answers.map { try $0.json["id"] as? String })
            #expect(ids.count == 1)
            let last = try await Self.refund(client, order, body, key: "same")
            let lastID = try last.json["id"] as? String
            #expect(last.status == .created && ids.contains(lastID))
            #expect(try await Self.providerRefunds(intent) == [1200])
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 4, "one of two mugs back, once")

            let other = try await Self.refund(
                client, order, #"{"amount": {"amount": 5, "currency": "JPY"}, "reason": "other", "restock": false}"#, key: "same")
            #expect((try other.expectProblem(422)["type"] as? String)?.hasSuffix("idempotency-key-reused") == true)
            #expect(try await Self.providerRefunds(intent) == [1200])
        }
    }

    @Test func linesBeyondWhatWasOrderedOrRestockedAreRefused() async throws {
        try await withApp { client, db in
            let (order, intent, mug, token) = try await Self.paidOrder(client, db)
            let variant = try await TestRows.variantID(of: mug, db)
            let one =
                #"{"amount": {"amount": 100, "currency": "JPY"}, "reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 1}]}"#
            #expect(try await Self.refund(client, order, one, key: "l1").status == .created)
            let three = #"{"reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 3}]}"#
            let tooMany = try await Self.refund(client, order, three, key: "l2")
            try tooMany.expectProblem(422)
            #expect(tooMany.fieldNames == ["lines[0].quantity"])
            let two =
                #"{"amount": {"amount": 100, "currency": "JPY"}, "reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 2}]}"#
            let beyond = try await Self.refund(client, order, two, key: "l3")
            try beyond.expectProblem(422)
            #expect(beyond.fieldNames == ["lines[0].quantity"])
            let stranger = #"{"reason": "other", "restock": true, "lines": [{"variant_id": "\#(mug)", "quantity": 1}]}"#
            let unknownItem = try await Self.refund(client, order, stranger, key: "l4")
            try unknownItem.expectProblem(422)
            #expect(unknownItem.fieldNames == ["lines[0].variant_id"], "the item's id is not the variant's")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 4)
            #expect(try await Self.providerRefunds(intent) == [100])

            // The customer's cancel refunds what is left and restocks only the mug not yet back.
            let cancelled = try await client.send(.post, "/v1/orders/\(order)/cancel", token: token)
            #expect(try cancelled.json["status"] as? String == "refunded")
            #expect(try await Self.providerRefunds(intent) == [100, 2300])
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }

    /// A line's units are refunded once, restocked or not: refunds by lines were bounded only by
    /// the order's total, so the same mug could be refunded again and again (here each refund
    /// names an amount below the total, so only the units bound it).
    @Test func aLinesUnitsAreRefundedOnceRestockedOrNot() async throws {
        try await withApp { client, db in
            let (order, intent, mug, _) = try await Self.paidOrder(client, db, quantity: 2)
            let variant = try await TestRows.variantID(of: mug, db)
            let refund = { (quantity: Int, key: String) in
                try await Self.refund(
                    client, order,
                    #"{"amount": {"amount": 100, "currency": "JPY"}, "reason": "other", "restock": false, "lines": [{"variant_id": "\#(variant)", "quantity": \#(quantity)}]}"#,
                    key: key)
            }
            #expect(try await refund(1, "u1").status == .created)
            #expect(try await refund(1, "u2").status == .created)
            let third = try await refund(1, "u3")
            #expect(
                try third.expectProblem(422)["errors"] as? [[String: String]] == [
                    ["field": "lines[0].quantity", "message": "must be at most 0, what earlier refunds left to refund"]
                ])
            #expect(try await Self.providerRefunds(intent) == [100, 100])
            let counted: Int = try await db.pool.query("SELECT refunded_quantity FROM order_lines WHERE variant_id = $1", variant)
                .rows[0].decode("refunded_quantity")
            #expect(counted == 2)
        }
    }

    @Test func badRefundRequestsGetClearAnswers() async throws {
        try await withApp { client, db in
            let (order, _, _, token) = try await Self.paidOrder(client, db)
            let body = #"{"amount": {"amount": 100, "currency": "JPY"}, "reason": "other", "restock": false}"#
            try await Self.refund(client, UUID().uuidString, body, key: "k").expectProblem(404)
            #expect(try await Self.refund(client, order, body, key: nil).fieldNames == ["idempotency_key"])
            // A return's refund is keyed `return-<id>`: a staff refund under one was taken for it.
            let returnKey = try await Self.refund(client, order, body, key: "return-\(UUID().uuidString.lowercased())")
            try returnKey.expectProblem(422)
            #expect(returnKey.fieldNames == ["idempotency_key"])
            let bad = try await Self.refund(
                client, order, #"{"amount": {"amount": 0, "currency": "JPY"}, "reason": "whim", "restock": false}"#, key: "k")
            try bad.expectProblem(422)
            #expect(bad.fieldNames == ["amount.amount", "reason"])
            let huge = try await Self.refund(
                client, order, #"{"amount": {"amount": 2401, "currency": "JPY"}, "reason": "other", "restock": false}"#, key: "k")
            #expect(try huge.expectProblem(409).money("remaining") == "2400 JPY")
            let dollars = #"{"amount": {"amount": 100, "currency": "USD"}, "reason": "other", "restock": false}"#
            let foreign = try await Self.refund(client, order, dollars, key: "k")
            try foreign.expectProblem(422)
            #expect(foreign.fieldNames == ["amount.currency"])
            let unauthorised = try await client.send(.post, "/v1/admin/orders/\(order)/refunds", json: body, token: token)
            #expect(unauthorised.status == .unauthorized)

            // An order that is not paid is named.
            try await client.send(
                .put, "/v1/cart/items/\(try await CheckoutHTTPTests.item(db, stock: 1))", json: #"{"quantity": 1}"#, token: token)
            let declined = try await CheckoutHTTPTests.checkout(client, token, key: "d", method: "pm_card_chargeCustomerFail").json
            let failed = try #require(declined["order_id"] as? String)
            let refused = try await Self.refund(client, failed, body, key: "k")
            #expect(try refused.expectProblem(409)["order_status"] as? String == "payment_failed")
        }
    }

    @Test func aProviderDownAtEachStepLeavesTheRefundPendingUntilTheReconcilerSettlesIt() async throws {
        let url = try ReconcileHTTPTests.livePayments()
        let unreachable = "http://127.0.0.1:\(freePort())"
        try await TestDatabase.with { db in
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.payment = (url, "sk_test_storefront")
            config.checkoutDeadline = .seconds(60)  // as `withApp`: localstripe is slow under the whole suite
            let (order, intent, mug, token) = try await buildApplication(
                AppResources(config: config, pool: Self.pool(db), logger: .init(label: "test"))
            )
            .test(.router) { client in try await Self.paidOrder(client, db) }
            let variant = try await TestRows.variantID(of: mug, db)

            config.payment = (unreachable, "sk_test_storefront")
            config.paymentTimeout = .seconds(1)
            try await buildApplication(AppResources(config: config, pool: Self.pool(db), logger: .init(label: "test"))).test(.router) {
                client in
                let body =
                    #"{"amount": {"amount": 1500, "currency": "JPY"}, "reason": "other", "restock": true, "lines": [{"variant_id": "\#(variant)", "quantity": 1}]}"#
                let pending = try await Self.refund(client, order, body, key: "down")
                #expect(pending.status == .accepted, "\(String(buffer: pending.body))")
                #expect(try pending.json["status"] as? String == "pending")
                #expect(try pending.json["provider_refund_id"] is NSNull)
                // The pending refund holds its amount: only 900 is left.
                let more = try await Self.refund(
                    client, order, #"{"amount": {"amount": 901, "currency": "JPY"}, "reason": "other", "restock": false}"#, key: "more")
                #expect(try more.expectProblem(409).money("remaining") == "900 JPY")
                // ... and the customer cannot cancel under it.
                let cancel = try await client.send(.post, "/v1/orders/\(order)/cancel", token: token)
                #expect((try cancel.expectProblem(409)["type"] as? String)?.hasSuffix("refund-unsettled") == true)
                let seen = try await Self.order(client, order, token)
                #expect(seen.money("refunded") == "1500 JPY")
                #expect((seen["refunds"] as? [[String: Any]])?.map { $0["status"] as? String } == ["pending"])
            }
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)
            #expect(try await Self.providerRefunds(intent) == [])

            try await db.pool.query("UPDATE refunds SET updated_at = updated_at - interval '1 hour'")
            #expect(try await ReconcileHTTPTests.reconciler(db, paymentURL: unreachable).reconcile().stillPending == 1)
            try await db.pool.query("UPDATE refunds SET updated_at = updated_at - interval '1 hour'")
            #expect(try await ReconcileHTTPTests.reconciler(db, paymentURL: url).reconcile().refunded == 1)
            try await db.pool.query("UPDATE refunds SET updated_at = updated_at - interval '1 hour'")
            #expect(try await ReconcileHTTPTests.reconciler(db, paymentURL: url).reconcile() == .init())
            let status: String = try await db.pool.query("SELECT status FROM refunds").rows[0].decode("status")
            #expect(status == "succeeded")
            #expect(try await Self.providerRefunds(intent) == [1500])
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 4, "restocked once")

            // The same answer delivered twice more at once (a webhook and a reconciler) changes nothing.
            let id: UUID = try await db.pool.query("SELECT id FROM refunds").rows[0].decode("id")
            let store = PostgresRefundStore(database: db.pool)
            async let first = store.recordRefund(id: id, status: .succeeded, providerRefundID: nil, at: Date())
            async let second = store.recordRefund(id: id, status: .failed, providerRefundID: nil, at: Date())
            #expect(try await [first.status, second.status] == [.succeeded, .succeeded])
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 4, "restocked once")
            let reserved: Int64 = try await db.pool.query("SELECT refunded_amount FROM orders").rows[0].decode("refunded_amount")
            #expect(reserved == 1500)
        }
    }
}
