import Domain
import Foundation
import Gateway
import HTTPTestSupport
import PropertyBased
import Scenes
import Synchronization
import TestSupport
import Testing

/// The payment state machine as a model, on real PostgreSQL: a provider whose PaymentIntent moves
/// along a random legal path, and inputs about it - the app's refresh, a webhook, the reconciler
/// (which may cancel an unconfirmed payment or one whose 3-D Secure deadline passed), in
/// duplicates and concurrently - interleaved at random with its moves. Whatever the interleaving, once someone
/// has seen the provider's final state: the order is paid if and only if the intent succeeded,
/// failed orders have their stock back, and the stock is what the order holds.
@Suite("Payment state machine, interleavings on real PostgreSQL")
struct PaymentStateModelTests {
    /// The provider's side of one payment: a scripted intent that the shop's cancel can end.
    final class ScriptedProvider: PaymentGateway, Sendable {
        let state = Mutex(PaymentStatus.requiresConfirmation)
        let longestCall: Duration = .seconds(1)

        func minimumCharge(in currency: Currency) -> Int64 { 1 }
        func maximumCharge(in currency: Currency) -> Int64 { .max }
        static let action = PaymentAction(clientSecret: "pi_model_secret_x", nextActionType: "use_stripe_sdk")

        func intent(_ status: PaymentStatus) -> PaymentIntent {
            PaymentIntent(
                id: "pi_model", status: status, amount: Money(amount: 2400, currency: Currency("JPY")!),
                action: status == .requiresAction ? Self.action : nil)
        }

        /// The provider moves on its own (the customer authenticates, the bank answers).
        func move(to status: PaymentStatus) { state.withLock { $0 = status } }

        func payment(id: String) async throws -> PaymentIntent { intent(state.withLock { $0 }) }
        func cancelPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
            let status: PaymentStatus? = state.withLock { status in
                guard [.requiresPaymentMethod, .requiresConfirmation, .requiresAction, .processing].contains(status) else { return nil }
                status = .canceled
                return status
            }
            guard let status else { throw PaymentError.invalidRequest(message: "cannot cancel", param: nil) }
            return intent(status)
        }
        func createPayment(amount: Money, paymentMethod: String?, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent {
            throw PaymentError.invalidRequest(message: "not in the model", param: nil)
        }
        func confirmPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
            throw PaymentError.invalidRequest(message: "not in the model", param: nil)
        }
        func refund(paymentID: String, amount: Money?, idempotencyKey: String) async throws -> PaymentRefund {
            throw PaymentError.invalidRequest(message: "not in the model", param: nil)
        }
        func refund(id: String) async throws -> PaymentRefund { throw PaymentError.invalidRequest(message: "not in the model", param: nil) }
        func refunds(paymentID: String) async throws -> [PaymentRefund] { [] }
    }

    /// The legal paths of a PaymentIntent after creation, as the provider moves it.
    static let paths: [[PaymentStatus]] = [
        [.succeeded],
        [.requiresAction, .succeeded],
        [.requiresAction, .requiresPaymentMethod],
        [.requiresAction],
        [.requiresPaymentMethod],
        [.processing, .succeeded],
        [.processing, .requiresPaymentMethod],
        [],
    ]

    enum Input: CaseIterable { case refresh, webhook, reconcile, reconcileAfterDeadline }

    static let runs = Mutex((interleavings: 0, violations: 0))

    @Test func anyInterleavingOfInputsEndsConsistent() async throws {
        let steps = Gen.int(in: 0...3).array(of: 1...8)
        await propertyCheck(count: 40, input: Gen.int(in: 0...(Self.paths.count - 1)), steps) { pathIndex, plan in
            try await TestDatabase.with { db in
                let violations = try await Self.run(path: Self.paths[pathIndex], plan: plan, db)
                Self.runs.withLock {
                    $0.interleavings += 1; $0.violations += violations
                }
            }
        }
        let (tried, broken) = Self.runs.withLock { ($0.interleavings, $0.violations) }
        print("payment model: \(tried) interleavings tried, \(broken) violations")
        #expect(broken == 0)
    }

    /// One interleaving: the provider's path, with inputs between its moves (`plan`: how many
    /// duplicate inputs, 0 to 2, fire concurrently after each move), then a last reconcile.
    /// - Returns: how many invariants broke.
    static func run(path: [PaymentStatus], plan: [Int], _ db: TestDatabase) async throws -> Int {
        let item = try await CheckoutHTTPTests.item(db, stock: 10)
        let customer = try await signedInCustomer(db).id
        try await db.pool.query(
            "INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, 2)", customer,
            try await TestRows.variantID(of: item, db))
        let provider = ScriptedProvider()
        let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
        let (order, _) = try await store.placeOrder(
            id: UUID(),
            request: CheckoutRequest(
                customerID: customer, paymentMethod: "pm_card_visa", idempotencyKey: "k",
                minimumCharge: Money(amount: 1, currency: Currency("JPY")!)), at: Date())
        _ = try await store.attachPayment(orderID: order.id, paymentIntentID: "pi_model", at: Date())
        // Old enough for the reconciler's pending pass.
        try await db.pool.query("UPDATE orders SET created_at = now() - interval '1 hour', updated_at = now() - interval '1 hour'")
        let refunds = PostgresRefundStore(database: db.pool)
        let patient = OrderContainer(
            store: store, refundStore: refunds, fulfilment: PostgresFulfilmentStore(orders: store),
            returns: PostgresReturnStore(database: db.pool), payments: provider,
            checkoutDeadline: .seconds(10), actionTimeout: .seconds(3600), awaitingPaymentLimit: 5, currency: Currency("JPY")!,
            invoiceIssuer: nil,
            system: .live)
        let hasty = OrderContainer(
            store: store, refundStore: refunds, fulfilment: PostgresFulfilmentStore(orders: store),
            returns: PostgresReturnStore(database: db.pool), payments: provider,
            checkoutDeadline: .seconds(10), actionTimeout: .seconds(0), awaitingPaymentLimit: 5, currency: Currency("JPY")!,
            invoiceIssuer: nil,
            system: .live)
        let webhooks = PaymentWebhookContainer(
            verifier: StripeWebhookVerifier(secret: "whsec_model_0000000000"), events: PostgresPaymentEventStore(database: db.pool),
            orders: store, refunds: PostgresRefundStore(database: db.pool), payments: provider, actionTimeout: .seconds(3600),
            system: .live)

        func fire(_ input: Input) async throws {
            switch input {
            case .refresh: _ = try await patient.useCase.refreshPayment(OrderRefreshPaymentInput(customerID: customer, id: order.id))
            case .webhook:
                let event = PaymentEvent(id: "evt_\(UUID())", type: "payment_intent.succeeded", paymentIntentID: "pi_model")
                _ = try await webhooks.useCase.handle(event)
            case .reconcile: _ = try await patient.reconciler!.reconcile()
            case .reconcileAfterDeadline:
                try await db.pool.query(
                    "UPDATE orders SET action_expires_at = now() - interval '1 second' WHERE status = 'requires_action'")
                _ = try await hasty.reconciler!.reconcile()
            }
        }
        var moves = path[...]
        for (index, duplicates) in plan.enumerated() {
            if index > 0, let next = moves.popFirst(), provider.state.withLock({ $0 }) != .canceled { provider.move(to: next) }
            let input = Input.allCases[(index + duplicates) % Input.allCases.count]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0...duplicates { group.addTask { try await fire(input) } }
                try await group.waitForAll()
            }
        }
        // Someone sees the final state.
        try await fire(.refresh)

        let final = provider.state.withLock { $0 }
        let settled = try #require(try await store.order(id: order.id, customerID: customer))
        let stock = try await CheckoutHTTPTests.stock(db, item)
        var violations = 0
        func check(_ condition: Bool, _ message: String) {
            if !condition {
                violations += 1
                Issue.record("\(message): path \(path), plan \(plan), provider \(final), order \(settled.status), stock \(stock)")
            }
        }
        check((settled.status == .paid) == (final == .succeeded), "paid exactly when the intent succeeded")
        let holdsStock = [.pendingPayment, .requiresAction, .paid].contains(settled.status)
        check(stock == (holdsStock ? 8 : 10), "stock is what the order holds")
        if [.canceled, .requiresPaymentMethod].contains(final) {
            check(settled.status == .paymentFailed, "a definite failure fails the order")
        }
        return violations
    }
}
