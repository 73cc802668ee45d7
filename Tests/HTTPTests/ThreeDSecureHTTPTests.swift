import Foundation
import FoundationNetworking
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
import Logging
import Scenes
import TestSupport
import Testing
import Translator

/// 3-D Secure end to end against localstripe: a card that needs the customer leaves the order
/// `requires_action` (202 with the client secret), its stock reserved; the app completes the
/// authentication at the provider and calls refresh, and the order settles from the provider's
/// answer - paid, failed with the stock back, or, abandoned past the deadline, cancelled by the
/// reconciler with the stock back. Before, checkout cancelled such a payment and declined it.
@Suite("3-D Secure checkout over HTTP")
struct ThreeDSecureHTTPTests {
    static var payments: String { ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"] ?? "http://127.0.0.1:1" }

    /// A form POST to localstripe; its JSON answer (empty when it answers none, as its `_config`
    /// routes do).
    @discardableResult
    static func provider(_ path: String, _ form: [String: String]) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: payments + path)!)
        request.httpMethod = "POST"
        request.setValue("Bearer sk_test_storefront", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        request.httpBody = Data(
            form.map {
                "\($0.key.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
            }
            .joined(separator: "&").utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// A payment method whose card needs 3-D Secure.
    static func threeDSecureCard() async throws -> String {
        let method = try await provider(
            "/v1/payment_methods",
            ["type": "card", "card[number]": "4000000000003220", "card[exp_month]": "12", "card[exp_year]": "2034", "card[cvc]": "123"])
        return try #require(method["id"] as? String)
    }

    /// The customer at the provider, passing or failing the authentication.
    static func authenticate(_ order: [String: Any], success: Bool) async throws {
        let intent = try #require(order["payment_intent_id"] as? String)
        let secret = try #require((order["payment"] as? [String: Any])?["client_secret"] as? String)
        _ = try await provider(
            "/v1/payment_intents/\(intent)/_authenticate", ["client_secret": secret, "success": success ? "true" : "false"])
    }

    /// A customer with two mugs in the cart, checked out with a 3-D Secure card: the 202's body.
    static func checkoutNeedingAction(_ client: any TestClientProtocol, _ db: TestDatabase, mug: UUID) async throws
        -> (token: String, order: [String: Any])
    {
        let (_, token) = try await signedInCustomer(db)
        try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
        let card = try await threeDSecureCard()
        let response = try await CheckoutHTTPTests.checkout(client, token, key: "3ds", method: card)
        #expect(response.status == .accepted, "\(String(buffer: response.body))")
        let order = try response.json
        let typed = try response.decode(OrderModel.self)
        #expect(typed.status == "requires_action")
        let payment = try #require(typed.payment)
        #expect(!payment.clientSecret.isEmpty && payment.nextAction.type == "use_stripe_sdk" && payment.expiresAt != nil)
        #expect(try await CheckoutHTTPTests.stock(db, mug) == 3, "the stock stays reserved while the customer authenticates")
        // The same key again answers the same, client secret included: no second payment.
        let replay = try await CheckoutHTTPTests.checkout(client, token, key: "3ds", method: card)
        #expect(replay.status == .accepted)
        let replayed = try replay.decode(OrderModel.self)
        #expect(replayed.id == typed.id && replayed.payment?.clientSecret == payment.clientSecret)
        return (token, order)
    }

    @Test func passedAuthenticationPaysTheOrderOnRefresh() async throws {
        try await withApp { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (token, order) = try await Self.checkoutNeedingAction(client, db, mug: mug)
            let id = try #require(order["id"] as? String)
            try await Self.authenticate(order, success: true)
            let refreshed = try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: token)
            #expect(refreshed.status == .ok)
            let paid = try refreshed.json
            #expect(paid["status"] as? String == "paid" && paid["payment"] is NSNull, "no action awaited: payment is null")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)
            #expect(try await client.send(.get, "/v1/cart", token: token).json["item_count"] as? Int == 0)
            // Refreshing again, or another customer refreshing, changes nothing.
            #expect(try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: token).json["status"] as? String == "paid")
            let (_, other) = try await signedInCustomer(db)
            try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: other).expectProblem(404)
        }
    }

    @Test func failedAuthenticationFailsTheOrderAndReleasesTheStock() async throws {
        try await withApp { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (token, order) = try await Self.checkoutNeedingAction(client, db, mug: mug)
            let id = try #require(order["id"] as? String)
            try await Self.authenticate(order, success: false)
            let failed = try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: token).json
            #expect(failed["status"] as? String == "payment_failed")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
            // The payment left waiting for another card is canceled before the order fails: the
            // app still holds its client secret, and a card confirmed on it would have charged
            // the customer for an order whose stock went back.
            let intent = try #require(order["payment_intent_id"] as? String)
            let card = try await Self.provider(
                "/v1/payment_methods",
                ["type": "card", "card[number]": "4242424242424242", "card[exp_month]": "12", "card[exp_year]": "2034", "card[cvc]": "123"])
            let retried = try await Self.provider(
                "/v1/payment_intents/\(intent)/confirm", ["payment_method": try #require(card["id"] as? String)])
            #expect(retried["status"] as? String != "succeeded", "\(retried)")
            var read = URLRequest(url: URL(string: Self.payments + "/v1/payment_intents/\(intent)")!)
            read.setValue("Bearer sk_test_storefront", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession.shared.data(for: read)
            #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["status"] as? String == "canceled")
        }
    }

    @Test func anAbandonedAuthenticationIsCancelledAfterItsDeadline() async throws {
        // A deadline far longer than the checkout can take on a loaded machine; its passing is
        // then simulated in the database, so no sleep races the suite's load.
        try await withApp(configure: { $0.paymentActionTimeout = .seconds(600) }) { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (_, order) = try await Self.checkoutNeedingAction(client, db, mug: mug)
            var config = AppConfig(databaseURL: db.url)
            config.payment = (Self.payments, "sk_test_storefront")
            let reconciler = try #require(
                OrderContainer.live(AppResources(config: config, pool: db.pool, logger: Logger(label: "test"))).reconciler)
            // The deadline is the configured one, counted from the checkout.
            let deadline: Int = try await db.pool.query(
                "SELECT extract(epoch FROM action_expires_at - now())::int AS left FROM orders"
            ).rows[0].decode("left")
            #expect((500...600).contains(deadline), "\(deadline) s left")
            // Inside the deadline the reservation holds.
            #expect(try await reconciler.reconcile().failed == 0)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)
            // Expired, and entered `requires_action` longer ago than the reconciler's minimum age.
            try await db.pool.query(
                "UPDATE orders SET action_expires_at = now() - interval '1 second', updated_at = now() - interval '1 hour'")
            let report = try await reconciler.reconcile()
            #expect(report.failed == 1, "\(report)")
            let status: String = try await db.pool.query("SELECT status FROM orders").rows[0].decode("status")
            #expect(status == "payment_failed")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
            // The provider's payment is cancelled: the customer can no longer complete it.
            let intent = try #require(order["payment_intent_id"] as? String)
            var request = URLRequest(url: URL(string: Self.payments + "/v1/payment_intents/\(intent)")!)
            request.setValue("Bearer sk_test_storefront", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession.shared.data(for: request)
            #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["status"] as? String == "canceled")
        }
    }
}

/// The payment sheet: a checkout without a payment method leaves the confirmation to the app
/// (card, Apple Pay). The order waits `requires_action` with the client secret and
/// `next_action.type` `confirm_payment`; the app confirms at the provider and the order settles
/// from the provider's answer on refresh - a payment still without a method is not a failure.
@Suite("Payment sheet checkout over HTTP")
struct PaymentSheetHTTPTests {
    @Test func theAppConfirmsThenTheOrderSettlesOnRefresh() async throws {
        try await withApp { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let response = try await client.send(
                .post, "/v1/orders", json: "{}", token: token, headers: [.init("Idempotency-Key")!: "sheet"])
            #expect(response.status == .accepted, "\(String(buffer: response.body))")
            let order = try response.json
            let id = try #require(order["id"] as? String)
            let intent = try #require(order["payment_intent_id"] as? String)
            let payment = try #require(order["payment"] as? [String: Any])
            #expect(order["status"] as? String == "requires_action")
            #expect((payment["next_action"] as? [String: Any])?["type"] as? String == "confirm_payment")
            #expect((payment["client_secret"] as? String)?.isEmpty == false)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)

            // Before the app confirms, a refresh changes nothing: no method yet is no failure.
            #expect(
                try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: token).json["status"] as? String
                    == "requires_action")
            // The app confirms with the customer's card (the provider's SDK does this with the secret;
            // localstripe takes the method and the confirmation as two calls).
            try await ThreeDSecureHTTPTests.provider("/v1/payment_intents/\(intent)", ["payment_method": "pm_card_visa"])
            #expect(
                try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: token).json["status"] as? String
                    == "requires_action")
            try await ThreeDSecureHTTPTests.provider("/v1/payment_intents/\(intent)/confirm", [:])
            let paid = try await client.send(.post, "/v1/orders/\(id)/payment/refresh", token: token).json
            #expect(paid["status"] as? String == "paid")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)
        }
    }

    /// The app retries its checkout after the customer cancelled the order it placed: the
    /// replay names the cancelled order and says nothing was charged (it answered 201, as paid).
    @Test func aReplayAfterTheCancelIsNoPayment() async throws {
        try await withApp { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let waiting = try await client.send(
                .post, "/v1/orders", json: "{}", token: token, headers: [.init("Idempotency-Key")!: "sheet"])
            let id = try #require(try waiting.json["id"] as? String)
            #expect(try await client.send(.post, "/v1/orders/\(id)/cancel", token: token).status == .ok)
            let replay = try await client.send(.post, "/v1/orders", json: "{}", token: token, headers: [.init("Idempotency-Key")!: "sheet"])
            let problem = try replay.expectProblem(409)
            #expect((problem["type"] as? String)?.hasSuffix("/order-cancelled") == true && problem["order_id"] as? String == id)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }
}

/// Orders waiting on the app each hold their stock: past `MAX_ORDERS_AWAITING_PAYMENT` of them a
/// checkout answers 409 with their ids and reserves nothing, until one is cancelled (or paid).
@Suite("Orders awaiting payment over HTTP")
struct AwaitingPaymentHTTPTests {
    @Test func theCheckoutPastTheLimitNamesTheWaitingOrdersUntilOneIsCancelled() async throws {
        try await withApp(configure: { $0.maxOrdersAwaitingPayment = 2 }) { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 10)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            func checkout(_ key: String) async throws -> TestResponse {
                try await client.send(.post, "/v1/orders", json: "{}", token: token, headers: [.init("Idempotency-Key")!: key])
            }
            var waiting: [String] = []
            for key in ["sheet-1", "sheet-2"] {
                let placed = try await checkout(key)
                #expect(placed.status == .accepted, "\(String(buffer: placed.body))")
                waiting.append(try #require(try placed.json["id"] as? String))
            }
            let refused = try await checkout("sheet-3")
            #expect(refused.status == .conflict)
            #expect(refused.headers[.contentType] == "application/problem+json")
            let problem = try refused.json
            #expect((problem["type"] as? String)?.hasSuffix("orders-awaiting-payment") == true, "\(problem)")
            #expect(problem["count"] as? Int == 2)
            #expect(problem["order_ids"] as? [String] == waiting)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 6, "the refused checkout reserved nothing")

            let cancelled = try await client.send(.post, "/v1/orders/\(waiting[0])/cancel", token: token)
            #expect(cancelled.status == .ok, "\(String(buffer: cancelled.body))")
            #expect(try await checkout("sheet-3").status == .accepted)
        }
    }
}

/// Stripe charges no less than ¥50 (`StripePaymentGateway.minimumCharges`), and localstripe no
/// less than 1: a cheaper order is refused by the service with what it totals and the least, and
/// nothing is reserved or sent to the provider, instead of failing as a declined payment.
@Suite("Orders outside the provider's charges over HTTP")
struct MinimumChargeHTTPTests {
    @Test func anOrderBelowTheMinimumIsRefusedAndReservesNothing() async throws {
        try await withApp { client, db in
            let sticker = try await CheckoutHTTPTests.item(db, stock: 10, price: 30)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.put, "/v1/cart/items/\(sticker)", json: #"{"quantity": 1}"#, token: token)
            let refused = try await CheckoutHTTPTests.checkout(client, token, key: "small")
            #expect(refused.status == .unprocessableContent, "\(String(buffer: refused.body))")
            let problem = try refused.json
            #expect((problem["type"] as? String)?.hasSuffix("amount-below-minimum") == true, "\(problem)")
            #expect(problem.money("total") == "30 JPY" && problem.money("minimum") == "50 JPY")
            #expect(try await CheckoutHTTPTests.stock(db, sticker) == 10)
            let placed: Int = try await db.pool.query("SELECT count(*)::integer AS n FROM orders").rows[0].decode("n")
            #expect(placed == 0)

            // Two of them reach the minimum (¥60 with tax included) and are charged.
            try await client.send(.put, "/v1/cart/items/\(sticker)", json: #"{"quantity": 2}"#, token: token)
            let paid = try await CheckoutHTTPTests.checkout(client, token, key: "enough")
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
        }
    }

    /// Stripe charges at most ¥99,999,999 at once and localstripe has no most: a cart past it
    /// was reserved and sent, and the provider's refusal came back as a declined card.
    @Test func anOrderAboveTheMaximumIsRefusedAndReservesNothing() async throws {
        try await withApp { client, db in
            let ring = try await CheckoutHTTPTests.item(db, stock: 10, price: 60_000_000)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.put, "/v1/cart/items/\(ring)", json: #"{"quantity": 2}"#, token: token)
            let problem = try await CheckoutHTTPTests.checkout(client, token, key: "large").expectProblem(422)
            #expect((problem["type"] as? String)?.hasSuffix("amount-above-maximum") == true, "\(problem)")
            #expect(problem.money("total") == "120000000 JPY" && problem.money("maximum") == "99999999 JPY")
            #expect(try await CheckoutHTTPTests.stock(db, ring) == 10)

            try await client.send(.put, "/v1/cart/items/\(ring)", json: #"{"quantity": 1}"#, token: token)
            let paid = try await CheckoutHTTPTests.checkout(client, token, key: "one")
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
        }
    }
}

/// The app may say what total it showed: an order that would total anything else (a price
/// changed since) is refused with what it totals now, nothing reserved or charged.
@Suite("Checkout with the total the app showed over HTTP")
struct ExpectedTotalHTTPTests {
    @Test func anOrderWhoseTotalChangedSinceItWasShownIsRefused() async throws {
        try await withApp { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 10, price: 1200)
            let (_, token) = try await signedInCustomer(db)
            try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
            let shown = try #require(try await client.send(.get, "/v1/cart", token: token).json["total"] as? [String: Any])
            #expect(shown["amount"] as? Int == 2400)
            try await db.pool.query("UPDATE item_variants SET price_amount = 1500 WHERE item_id = $1", mug)

            func checkout(_ key: String, expected: Int) async throws -> TestResponse {
                try await client.send(
                    .post, "/v1/orders",
                    json: #"{"payment_method":"pm_card_visa","expected_total":{"amount":\#(expected),"currency":"JPY"}}"#,
                    token: token, headers: [.init("Idempotency-Key")!: key])
            }
            let refused = try await checkout("shown", expected: 2400)
            let problem = try refused.expectProblem(409)
            #expect((problem["type"] as? String)?.hasSuffix("total-changed") == true, "\(problem)")
            #expect(problem.money("total") == "3000 JPY" && problem.money("expected") == "2400 JPY")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 10, "nothing reserved")
            #expect((try await client.send(.get, "/v1/orders", token: token).json["data"] as? [Any])?.isEmpty == true)
            let dollars = try await client.send(
                .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa","expected_total":{"amount":3000,"currency":"USD"}}"#,
                token: token, headers: [.init("Idempotency-Key")!: "dollars"])
            _ = try dollars.expectProblem(422)
            #expect(dollars.fieldNames == ["expected_total.currency"])
            let paid = try await checkout("shown", expected: 3000)
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
            #expect(try paid.json["status"] as? String == "paid")
        }
    }
}
