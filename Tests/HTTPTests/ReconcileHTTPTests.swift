import Domain
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
import UseCase

/// The reconciler on real PostgreSQL against a real localstripe: it settles only on a definite
/// provider status, and never inside a checkout's deadline.
@Suite("Reconciler against the provider")
struct ReconcileHTTPTests {
    static func livePayments() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_PAYMENT_URL is not set: run through ./Tools/test")
        }
        return url
    }

    static func reconciler(_ db: TestDatabase, paymentURL: String, key: String = "sk_test_storefront") throws -> ReconcileUseCase {
        var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
        config.payment = (paymentURL, key)
        return try #require(OrderContainer.live(AppResources(config: config, pool: db.pool, logger: Logger(label: "test"))).reconciler)
    }

    static func status(_ db: TestDatabase, _ order: String) async throws -> String {
        try await db.pool.query("SELECT status FROM orders WHERE id = $1::uuid", order).rows[0].decode("status")
    }

    /// Makes every order look older than any checkout or cancel could still be working on it.
    static func ageOrders(_ db: TestDatabase) async throws {
        try await db.pool.query(
            "UPDATE orders SET created_at = created_at - interval '1 hour', updated_at = updated_at - interval '1 hour'")
    }

    @Test func aRefusedKeyLeavesAPendingOrderAndItsStockAlone() async throws {
        let url = try Self.livePayments()
        try await TestDatabase.with { db in
            let (customer, _) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 4)
            // A checkout whose confirm never answered: created at the provider, never confirmed.
            let order = UUID()
            let intent = try await StripePaymentGateway(baseURL: url, secretKey: "sk_test_storefront").createPayment(
                amount: Money(amount: 1200, currency: Currency("JPY")!), paymentMethod: "pm_card_visa", orderID: order,
                idempotencyKey: "create-\(order)")
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, payment_intent_id,
                                    idempotency_key, request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'pending_payment', 1200, 'JPY', 'pm_card_visa', $3, 'k', 'x', now(), now())
                """, order, customer, intent.id)
            try await TestRows.insertOrderLine(db, order: order, item: mug, price: 1200, quantity: 1)
            try await Self.ageOrders(db)

            // localstripe answers 401 to a key that is not sk_...: as after a key rotation.
            let rotated = try await Self.reconciler(db, paymentURL: url, key: "rotated").reconcile()
            #expect(rotated.stillPending == 1 && rotated.failed == 0)
            #expect(try await Self.status(db, order.uuidString) == "pending_payment")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 4)

            // With the right key, once the pass's claim is old enough to be tried again, the
            // unconfirmed payment is cancelled and the stock comes back.
            try await Self.ageOrders(db)
            #expect(try await Self.reconciler(db, paymentURL: url).reconcile().failed == 1)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }

    @Test func aCheckoutInsideItsDeadlineIsNotReconciled() async throws {
        let url = try Self.livePayments()
        try await TestDatabase.with { db in
            let (customer, _) = try await signedInCustomer(db)
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                    request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'pending_payment', 1200, 'JPY', 'pm_card_visa', 'k', 'x', now() - interval '61 seconds', now())
                """, UUID(), customer)
            let reconciler = try Self.reconciler(db, paymentURL: url)
            // Older than the minute the reconciler used to wait; its checkout may still be confirming.
            #expect(try await reconciler.reconcile(olderThan: .seconds(60)) == ReconcileUseCase.Report())
            let pending: Int = try await db.pool.query("SELECT count(*)::int AS n FROM orders WHERE status = 'pending_payment'").rows[0]
                .decode("n")
            #expect(pending == 1)
        }
    }

    @Test(arguments: [1, 10, 60])
    func theMinimumAgeFollowsPaymentTimeoutSeconds(seconds: Int) throws {
        // Two calls (create, confirm), each 3 attempts of `seconds` with 0.5 s and 1 s of backoff.
        let calls = (Duration.seconds(seconds) * 3 + .milliseconds(1500)) * 2
        let config = try AppConfig.fromEnvironment([
            "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none", "PAYMENT_API_URL": "http://127.0.0.1:1",
            "PAYMENT_API_KEY": "sk_test", "PAYMENT_TIMEOUT_SECONDS": String(seconds),
        ])
        let reconciler = try #require(OrderContainer.live(.live(config, logger: Logger(label: "test"))).reconciler)
        #expect(reconciler.minimumAge == calls + ReconcileUseCase.margin)
    }

    @Test func aRefundWithNoAnswerIsRefundPendingUntilTheProviderSaysItSucceeded() async throws {
        let url = try Self.livePayments()
        try await TestDatabase.with { db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.payment = (url, "sk_test_storefront")
            config.checkoutDeadline = .seconds(60)  // as `withApp`: localstripe is slow under the whole suite
            let (order, intent) = try await buildApplication(
                AppResources(
                    config: config, pool: PostgresPool(.init(connection: .init(conninfo: db.url))), logger: Logger(label: "test"))
            ).test(.router) { client in
                try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 2}"#, token: token)
                let paid = try await CheckoutHTTPTests.checkout(client, token, key: "k").json
                return (try #require(paid["id"] as? String), try #require(paid["payment_intent_id"] as? String))
            }

            // The provider does not answer the refund: 202, refund_pending, stock still out.
            config.payment = ("http://127.0.0.1:\(freePort())", "sk_test_storefront")
            config.paymentTimeout = .seconds(1)
            try await buildApplication(
                AppResources(
                    config: config, pool: PostgresPool(.init(connection: .init(conninfo: db.url))), logger: Logger(label: "test"))
            ).test(.router) { client in
                let cancelled = try await client.send(.post, "/v1/orders/\(order)/cancel", token: token)
                #expect(cancelled.status == .accepted)
                #expect(try cancelled.json["status"] as? String == "refund_pending")
                try await client.send(.post, "/v1/orders/\(order)/cancel", token: token).expectProblem(409)
            }
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)

            // It did reach the provider: the reconciler finds that refund by its key, records it,
            // restocks.
            let gateway = StripePaymentGateway(baseURL: url, secretKey: "sk_test_storefront")
            let refund = try await gateway.refund(paymentID: intent, amount: nil, idempotencyKey: "order-\(order)-refund")
            try await Self.ageOrders(db)
            #expect(try await Self.reconciler(db, paymentURL: url).reconcile().refunded == 1)
            #expect(try await Self.status(db, order) == "refunded")
            let recorded: String = try await db.pool.query("SELECT refund_id FROM orders WHERE id = $1::uuid", order).rows[0]
                .decode("refund_id")
            #expect(recorded == refund.id)
            #expect(try await gateway.refunds(paymentID: intent).count == 1, "refunded once")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }

    /// The attacker's lost ¥2,500: a staff refund of part of the payment succeeded before the
    /// cancel, whose own refund went unanswered. The reconciler must not take the staff's refund
    /// for the cancel's: it asks for what is left.
    @Test func aStaffRefundOfThePaymentIsNotTakenForTheCancels() async throws {
        let url = try Self.livePayments()
        try await TestDatabase.with { db in
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.payment = (url, "sk_test_storefront")
            config.checkoutDeadline = .seconds(60)
            let (order, intent, _, token) = try await buildApplication(
                AppResources(config: config, pool: RefundHTTPTests.pool(db), logger: Logger(label: "test"))
            ).test(.router) { client in
                let paid = try await RefundHTTPTests.paidOrder(client, db)
                let staff = #"{"amount": {"amount": 500, "currency": "JPY"}, "reason": "other", "restock": false}"#
                #expect(try await RefundHTTPTests.refund(client, paid.order, staff, key: "staff").status == .created)
                return paid
            }

            config.payment = ("http://127.0.0.1:\(freePort())", "sk_test_storefront")
            config.paymentTimeout = .seconds(1)
            try await buildApplication(
                AppResources(config: config, pool: RefundHTTPTests.pool(db), logger: Logger(label: "test"))
            ).test(.router) { client in
                let cancelled = try await client.send(.post, "/v1/orders/\(order)/cancel", token: token)
                #expect(try cancelled.json["status"] as? String == "refund_pending")
            }

            try await Self.ageOrders(db)
            #expect(try await Self.reconciler(db, paymentURL: url).reconcile().refunded == 1)
            #expect(try await Self.status(db, order) == "refunded")
            #expect(try await RefundHTTPTests.providerRefunds(intent) == [500, 1900], "the staff's, then what was left")
        }
    }

    @Test func twoReconcilersAtOnceAskForAMissingRefundOnce() async throws {
        let url = try Self.livePayments()
        try await TestDatabase.with { db in
            let (customer, _) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 4)
            // A refund that never reached the provider: the order is refund_pending with no refund.
            let gateway = StripePaymentGateway(baseURL: url, secretKey: "sk_test_storefront")
            let order = UUID()
            let intent = try await gateway.createPayment(
                amount: Money(amount: 1200, currency: Currency("JPY")!), paymentMethod: "pm_card_visa", orderID: order,
                idempotencyKey: "create-\(order)")
            _ = try await gateway.confirmPayment(id: intent.id, idempotencyKey: "confirm-\(order)")
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, payment_intent_id,
                                    idempotency_key, request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'refund_pending', 1200, 'JPY', 'pm_card_visa', $3, 'k', 'x', now(), now())
                """, order, customer, intent.id)
            try await TestRows.insertOrderLine(db, order: order, item: mug, price: 1200, quantity: 1)
            try await Self.ageOrders(db)

            // localstripe ignores Idempotency-Key: only the claim keeps the second pass off it.
            let reconciler = try Self.reconciler(db, paymentURL: url)
            async let first = reconciler.reconcile()
            async let second = reconciler.reconcile()
            let reports = try await [first, second]
            #expect(reports.map(\.refunded).sorted() == [0, 1])
            #expect(try await gateway.refunds(paymentID: intent.id).count == 1)
            #expect(try await Self.status(db, order.uuidString) == "refunded")
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 5)
        }
    }
}
