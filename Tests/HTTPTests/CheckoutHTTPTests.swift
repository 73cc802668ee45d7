import Foundation
import Gateway
import HTTP
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
import Logging
import Postgres
import Scenes
import TestSupport
import Testing
import Translator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checkout end to end: the whole app on real PostgreSQL, paying at a real localstripe.
@Suite("Checkout and orders over HTTP")
struct CheckoutHTTPTests {
    static func item(_ db: TestDatabase, stock: Int, price: Int64 = 1200) async throws -> UUID {
        try await TestRows.insertItem(db, name: "Mug", category: "kitchen", price: price, stock: stock)
    }

    static func stock(_ db: TestDatabase, _ item: UUID) async throws -> Int {
        try await TestRows.stock(db, item: item)
    }

    static func checkout(_ client: any TestClientProtocol, _ token: String, key: String, method: String = "pm_card_visa") async throws
        -> TestResponse
    {
        try await client.send(
            .post, "/v1/orders", json: #"{"payment_method":"\#(method)"}"#, token: token, headers: [.init("Idempotency-Key")!: key])
    }

    @Test func payFromCartThenSeeTheOrder() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await Self.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let paid = try await Self.checkout(client, token, key: "k1")
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
            let order = try paid.decode(OrderModel.self)
            #expect(order.status == "paid" && order.total.amount == 2400 && order.payment == nil)
            #expect(order.paymentIntentID?.hasPrefix("pi_") == true)
            #expect(
                order.lines.map(\.quantity) == [2] && order.lines[0].lineTotal.amount == 2400 && order.lines[0].unitPrice.amount == 1200)
            #expect(paid.headers[.location] == "/v1/orders/\(order.id)")
            #expect(try await Self.stock(db, mug) == 3)
            #expect(try await client.send(.get, "/v1/cart", token: token).decode(CartViewModel.self).itemCount == 0)

            #expect(try await client.send(.get, "/v1/orders/\(order.id)", token: token).decode(OrderModel.self).status == "paid")
            let list = try await client.send(.get, "/v1/orders", token: token).decode(PageModel<OrderModel>.self)
            #expect(list.data.map(\.id) == [order.id] && list.nextCursor == nil)

            // Another customer sees nothing of it.
            let (_, other) = try await signedInCustomer(db)
            try await client.send(.get, "/v1/orders/\(order.id)", token: other).expectProblem(404)
            #expect(try await client.send(.get, "/v1/orders", token: other).decode(PageModel<OrderModel>.self).data.isEmpty)
        }
    }

    @Test func declinedCardReleasesTheStock() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await Self.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let declined = try await Self.checkout(client, token, key: "k1", method: "pm_card_chargeCustomerFail")
            let problem = try declined.expectProblem(402)
            #expect(problem["decline_code"] as? String == "card_declined")
            #expect(try await Self.stock(db, mug) == 5)
            let status: String = try await db.pool.query("SELECT status FROM orders").rows[0].decode("status")
            #expect(status == "payment_failed")
            // The cart is kept, so the customer can pay another way.
            #expect(try await client.send(.get, "/v1/cart", token: token).json["item_count"] as? Int == 2)
        }
    }

    @Test func badCheckoutsGetClearAnswers() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            try await Self.checkout(client, token, key: "k-empty").expectProblem(422)
            let mug = try await Self.item(db, stock: 5)
            let pen = try await Self.item(db, stock: 1)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            try await client.send(.put, "/v1/cart/items/\(pen)", json: #"{"quantity": 1}"#, token: token)
            try await TestRows.setStock(db, item: pen, 0)
            let short = try await Self.checkout(client, token, key: "k-short")
            let problem = try short.expectProblem(409)
            #expect(problem["item_ids"] as? [String] == [pen.uuidString.lowercased()])
            #expect(try await Self.stock(db, mug) == 5, "nothing may stay reserved")
            let missingKey = try await client.send(.post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: token)
            try missingKey.expectProblem(422)
            #expect(missingKey.fieldNames == ["idempotency_key"])
            try await Self.checkout(client, token, key: "k-bad", method: "card").expectProblem(422)
            try await client.send(
                .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, headers: [.init("Idempotency-Key")!: "x"]
            )
            .expectProblem(401)
        }
    }

    @Test func sameKeyReplaysAndAnotherBodyIsRefused() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await Self.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
            let first = try await Self.checkout(client, token, key: "same")
            let again = try await Self.checkout(client, token, key: "same")
            #expect(first.status == .created && again.status == .created)
            #expect(try first.json["id"] as? String == again.json["id"] as? String)
            try await Self.checkout(client, token, key: "same", method: "pm_card_mastercard").expectProblem(422)
            #expect(try await Self.stock(db, mug) == 4)
        }
    }

    @Test func fiftyCustomersRaceForTenUnits() async throws {
        try await withApp { client, db in
            let mug = try await Self.item(db, stock: 10)
            var tokens: [String] = []
            for _ in 0..<50 {
                let (_, token) = try await signedInCustomer(db)
                try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
                tokens.append(token)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for token in tokens {
                    group.addTask { Int(try await Self.checkout(client, token, key: "race").status.code) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Every winner is answered 201: the checkout's deadline timer, cancelled because the
            // payment answered, used to answer "pending" now and then (202 for a paid order).
            #expect(statuses.filter { $0 == 201 }.count == 10, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 409 }.count == 40)
            #expect(try await Self.stock(db, mug) == 0)
            let paid: Int = try await db.pool.query("SELECT count(*)::int AS n FROM orders WHERE status = 'paid'").rows[0].decode("n")
            #expect(paid == 10)
        }
    }

    @Test func oneKeySentFiveTimesAtOnceMakesOneOrderAndOnePayment() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await Self.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<5 { group.addTask { try await Self.checkout(client, token, key: "burst").json["id"] as? String } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(Set(ids.compactMap { $0 }).count == 1, "\(ids)")
            let orders: Int = try await db.pool.query("SELECT count(*)::int AS n FROM orders").rows[0].decode("n")
            #expect(orders == 1)
            #expect(try await Self.stock(db, mug) == 4)
            let orderID = try #require(ids.compactMap { $0 }.first)
            #expect(try await Self.paymentIntents(forOrder: orderID) == 1)
        }
    }

    /// How many PaymentIntents localstripe holds for the order (by `metadata[order_id]`).
    /// How many PaymentIntents the provider holds for the order: every page of the list, since
    /// the whole test run's intents share one localstripe.
    static func paymentIntents(forOrder orderID: String) async throws -> Int {
        let base = try #require(ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"])
        var count = 0
        var after: String?
        repeat {
            var request = URLRequest(
                url: URL(string: base + "/v1/payment_intents?limit=100" + (after.map { "&starting_after=\($0)" } ?? ""))!)
            request.setValue("Bearer sk_test_storefront", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession.shared.data(for: request)
            let list = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let intents = list["data"] as? [[String: Any]] ?? []
            count += intents.filter { ($0["metadata"] as? [String: Any])?["order_id"] as? String == orderID }.count
            after = list["has_more"] as? Bool == true ? intents.last?["id"] as? String : nil
        } while after != nil
        return count
    }

    /// A double tap on "Buy", a key per tap, six times at once: one order is paid for the cart;
    /// every other tap is refused (409 while that one is being paid, 422 once it emptied the
    /// cart), and the stock went once. Each tap placed and charged its own order before.
    @Test func tapsRacingOnOneCartPayOnce() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await Self.item(db, stock: 10)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 3}"#, token: token)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for tap in 0..<6 {
                    group.addTask { Int(try await Self.checkout(client, token, key: "tap-\(tap)").status.code) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.allSatisfy { [201, 409, 422].contains($0) }, "\(statuses)")
            #expect(try await Self.stock(db, mug) == 7)
            let orders = try await client.send(.get, "/v1/orders", token: token).json["data"] as? [[String: Any]]
            #expect(orders?.count == 1)
        }
    }
}

@Suite("Checkout while the payment API is down, then reconciled")
struct PaymentOutageHTTPTests {
    @Test func pendingOrdersSettleAndStockMatchesThePaidOrders() async throws {
        guard let livePayments = ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_PAYMENT_URL is not set: run through ./Tools/test")
        }
        try await TestDatabase.with { db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 10)
            // The provider is down: every checkout is answered 202 and stays pending.
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.payment = ("http://127.0.0.1:\(freePort())", "sk_test_storefront")
            // Its own pool: the app closes its pool when the test client is done with it.
            let appPool = PostgresPool(.init(connection: .init(conninfo: db.url)))
            let down = AppResources(config: config, pool: appPool, logger: Logger(label: "test"))
            try await buildApplication(down).test(.router) { client in
                for _ in 0..<2 {
                    let (_, token) = try await signedInCustomer(db)
                    try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
                    #expect(try await CheckoutHTTPTests.checkout(client, token, key: "k").status == .accepted)
                }
            }
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 6, "pending orders hold their stock")

            // The provider is back: one reconcile pass settles every pending order.
            config.payment = (livePayments, "sk_test_storefront")
            let up = AppResources(config: config, pool: db.pool, logger: Logger(label: "test"))
            let reconciler = try #require(OrderContainer.live(up).reconciler)
            // Every checkout has answered: age the orders past the reconciler's minimum.
            try await db.pool.query(
                "UPDATE orders SET created_at = created_at - interval '1 hour', updated_at = updated_at - interval '1 hour'")
            let report = try await reconciler.reconcile()
            #expect(report.stillPending == 0 && report.paid + report.failed == 2)
            let pending: Int = try await db.pool.query("SELECT count(*)::int AS n FROM orders WHERE status = 'pending_payment'").rows[0]
                .decode("n")
            #expect(pending == 0)
            let paidUnits: Int = try await db.pool.query(
                "SELECT coalesce(sum(l.quantity), 0)::int AS n FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status = 'paid'"
            ).rows[0].decode("n")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 10 - paidUnits)
        }
    }
}

@Suite("Order cancellation over HTTP")
struct CancelHTTPTests {
    @Test func paidOrderIsRefundedAndRestockedOnce() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let id = try #require(try await CheckoutHTTPTests.checkout(client, token, key: "k").json["id"] as? String)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)

            let (_, stranger) = try await signedInCustomer(db)
            try await client.send(.post, "/v1/orders/\(id)/cancel", token: stranger).expectProblem(404)

            let cancelled = try await client.send(.post, "/v1/orders/\(id)/cancel", token: token)
            #expect(cancelled.status == .ok)
            #expect(try cancelled.json["status"] as? String == "refunded")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
            // The staff see who made each change: the customer placed it and cancelled it.
            let events = try await client.send(.get, "/v1/admin/orders/\(id)", token: adminToken).json["events"] as? [[String: Any]]
            let changes = events?.compactMap { event in (event["data"] as? [String: String])?["to"].map { ($0, event["actor"] as? String) }
            }
            #expect(changes?.map(\.0) == ["paid", "refund_pending", "refunded"])
            #expect(changes?.map(\.1) == ["system", "customer", "customer"])
            let again = try await client.send(.post, "/v1/orders/\(id)/cancel", token: token)
            #expect(try again.expectProblem(409)["order_status"] as? String == "refunded")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }

    @Test func declinedOrderCannotBeCancelled() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
            let declined = try await CheckoutHTTPTests.checkout(client, token, key: "k", method: "pm_card_chargeCustomerFail")
            let id = try #require(try declined.json["order_id"] as? String)
            try await client.send(.post, "/v1/orders/\(id)/cancel", token: token).expectProblem(409)
            try await client.send(.post, "/v1/orders/\(UUID())/cancel", token: token).expectProblem(404)
        }
    }

    @Test func pendingOrderIsCancelledAndRestocked() async throws {
        try await withApp { client, db in
            let (customer, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            // A checkout the provider never answered: pending, stock held, no payment recorded.
            let order = UUID()
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                    request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'pending_payment', 1200, 'JPY', 'pm_card_visa', 'k', 'x', now(), now())
                """, order, customer)
            try await TestRows.insertOrderLine(db, order: order, item: mug, price: 1200, quantity: 1)
            try await TestRows.setStock(db, item: mug, 4)
            let cancelled = try await client.send(.post, "/v1/orders/\(order)/cancel", token: token)
            #expect(try cancelled.json["status"] as? String == "cancelled")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }
}

/// A provider that takes the connection and never answers: the checkout still answers within
/// CHECKOUT_DEADLINE_SECONDS (202, the order pending with its stock held), though each call's own
/// deadline and retries would take half a minute. Before, the answer waited all of that.
@Suite("Checkout within its deadline while the provider is silent")
struct CheckoutDeadlineHTTPTests {
    /// A listening socket nobody accepts from: connections complete, requests hang.
    static func silentProvider() throws -> (port: Int, socket: Int32) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else { throw TestSetupError("could not listen") }
        return (Int(UInt16(bigEndian: address.sin_port)), fd)
    }

    @Test func aSilentProviderGetsA202AtTheDeadline() async throws {
        let provider = try Self.silentProvider()
        defer { close(provider.socket) }
        try await withApp(configure: {
            $0.payment = ("http://127.0.0.1:\(provider.port)", "sk_test_silent")
            $0.checkoutDeadline = .seconds(1)
            // Far past the bound below: only the checkout deadline can end the wait in time.
            $0.paymentTimeout = .seconds(60)
        }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let started = ContinuousClock.now
            let response = try await CheckoutHTTPTests.checkout(client, token, key: "silent")
            let took = ContinuousClock.now - started
            #expect(response.status == .accepted, "\(String(buffer: response.body))")
            // Loose: the whole suite shares two cores, and placing the order comes first.
            #expect(took < .seconds(20), "answered after \(took)")
            #expect(try response.json["status"] as? String == "pending_payment")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3, "the stock stays held for the reconciler")
        }
    }
}
