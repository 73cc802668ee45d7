import Domain
import Foundation
import Postgres
import TestSupport
import Testing

@testable import Gateway

/// A customer's orders waiting for payment each hold their stock, so a checkout is refused once
/// the customer has `awaitingPaymentLimit` of them (`PostgresOrderStore+Placing`), and while one
/// of them is still being paid (`pending_payment`), also when the customer's checkouts race: the
/// customer's row is locked before they are counted.
@Suite("Orders awaiting payment on real PostgreSQL")
struct PostgresOrderAwaitingPaymentTests {
    private static let yen = Currency("JPY")!

    /// A customer with `quantity` of a variant stocked 1,000 in the cart.
    private static func customerWithCart(_ db: TestDatabase, index: Int, quantity: Int) async throws -> (customer: UUID, variant: UUID) {
        let customer = UUID()
        try await db.pool.query(
            "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'A', 'h')", customer, "awaiting-\(index)@example.com")
        let variant = try await TestRows.variantID(of: try await TestRows.insertItem(db, price: 500, stock: 1000), db)
        try await db.pool.query(
            "INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, $3)", customer, variant, quantity)
        return (customer, variant)
    }

    private static func request(_ customer: UUID, key: String, limit: Int) -> CheckoutRequest {
        CheckoutRequest(
            customerID: customer, paymentMethod: nil, idempotencyKey: key, awaitingPaymentLimit: limit,
            minimumCharge: Money(amount: 50, currency: yen))
    }

    /// The app's part of a payment sheet's or a 3-D Secure payment: the order waits on it.
    private static func awaitApp(_ order: UUID, _ db: TestDatabase) async throws {
        try await db.pool.query(
            """
            UPDATE orders SET status = 'requires_action', payment_intent_id = 'pi_' || id, action_client_secret = 'secret',
                              action_type = 'confirm_payment', action_expires_at = now() + interval '15 minutes'
            WHERE id = $1
            """, order)
    }

    private static func stock(of variant: UUID, _ db: TestDatabase) async throws -> Int {
        try await db.pool.query("SELECT stock FROM item_variants WHERE id = $1", variant).rows[0].decode("stock")
    }

    @Test func theCheckoutPastTheLimitIsRefusedWithTheWaitingOrdersAndReservesNothing() async throws {
        try await TestDatabase.with { db in
            let (customer, variant) = try await Self.customerWithCart(db, index: 0, quantity: 10)
            let store = PostgresOrderStore(database: db.pool, currency: Self.yen)
            var placed: [UUID] = []
            for key in ["a", "b"] {
                let (order, created) = try await store.placeOrder(
                    id: UUID(), request: Self.request(customer, key: key, limit: 2), at: Date())
                #expect(created)
                placed.append(order.id)
                try await Self.awaitApp(order.id, db)
            }
            await #expect(throws: OrderError.awaitingPayment(placed)) {
                try await store.placeOrder(id: UUID(), request: Self.request(customer, key: "c", limit: 2), at: Date())
            }
            #expect(try await Self.stock(of: variant, db) == 980, "the refused checkout reserved nothing")

            // A repeated key still answers with its order, and one order settled frees a place.
            let (replayed, created) = try await store.placeOrder(
                id: UUID(), request: Self.request(customer, key: "a", limit: 2), at: Date())
            #expect(!created && replayed.id == placed[0])
            try await db.pool.query("UPDATE orders SET status = 'payment_failed' WHERE id = $1", placed[0])
            let (third, thirdCreated) = try await store.placeOrder(
                id: UUID(), request: Self.request(customer, key: "c", limit: 2), at: Date())
            #expect(thirdCreated && third.status == .pendingPayment)
        }
    }

    /// A double tap on "Buy" with a key per tap: while the first order is still being paid, the
    /// second checkout of the cart is refused naming it, and reserves nothing. Once the first is
    /// settled (here declined: the cart stays), or left pending past the time its checkout may
    /// take, the customer may check out again.
    @Test func aCheckoutWhileAnotherIsBeingPaidIsRefused() async throws {
        try await TestDatabase.with { db in
            let (customer, variant) = try await Self.customerWithCart(db, index: 2, quantity: 2)
            let store = PostgresOrderStore(database: db.pool, currency: Self.yen)
            let (first, created) = try await store.placeOrder(
                id: UUID(), request: Self.request(customer, key: "tap-1", limit: 5), at: Date())
            #expect(created)
            await #expect(throws: OrderError.checkoutInProgress(first.id)) {
                try await store.placeOrder(id: UUID(), request: Self.request(customer, key: "tap-2", limit: 5), at: Date())
            }
            #expect(try await Self.stock(of: variant, db) == 998)
            try await db.pool.query("UPDATE orders SET status = 'payment_failed' WHERE id = $1", first.id)
            let (second, placed) = try await store.placeOrder(
                id: UUID(), request: Self.request(customer, key: "tap-2", limit: 5), at: Date())
            #expect(placed)
            // One still pending past `paymentUnderWay` is the reconciler's: it bars no checkout
            // (one the provider never settles barred its customer's for good).
            try await db.pool.query("UPDATE orders SET created_at = now() - interval '10 minutes' WHERE id = $1", second.id)
            #expect(try await store.placeOrder(id: UUID(), request: Self.request(customer, key: "tap-3", limit: 5), at: Date()).created)
        }
    }

    /// Twelve checkouts of one customer at once, each with a key of its own: exactly one is
    /// placed, whatever their order, and only its stock is reserved; the others name it.
    @Test func racingCheckoutsOfOneCustomerPlaceOneOrder() async throws {
        try await TestDatabase.with { db in
            let (customer, variant) = try await Self.customerWithCart(db, index: 1, quantity: 5)
            let store = PostgresOrderStore(database: db.pool, currency: Self.yen)
            let outcomes = try await withThrowingTaskGroup(of: (placed: UUID?, refusedFor: UUID?).self) { group in
                for attempt in 0..<12 {
                    group.addTask {
                        do {
                            let (order, created) = try await store.placeOrder(
                                id: UUID(), request: Self.request(customer, key: "race-\(attempt)", limit: 3), at: Date())
                            return (created ? order.id : nil, nil)
                        } catch OrderError.checkoutInProgress(let paying) {
                            return (nil, paying)
                        }
                    }
                }
                return try await group.reduce(into: [(placed: UUID?, refusedFor: UUID?)]()) { $0.append($1) }
            }
            let placed = outcomes.compactMap(\.placed)
            #expect(placed.count == 1)
            #expect(outcomes.compactMap(\.refusedFor) == Array(repeating: placed[0], count: 11))
            let waiting: Int = try await db.pool.query(
                "SELECT count(*)::integer AS n FROM orders WHERE customer_id = $1 AND status = 'pending_payment'", customer
            ).rows[0].decode("n")
            #expect(waiting == 1)
            #expect(try await Self.stock(of: variant, db) == 995)
        }
    }
}
