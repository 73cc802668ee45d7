import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A cancel claims a paid order's refund; a claim made again after its refund failed starts
/// with no refund of its own. It once kept the failed one, so the reconciler and the payment
/// events settled the second refund from the first's answer: the order went back to `paid` and
/// shipped while the provider gave the customer their money back.
@Suite("A cancel's claim on real PostgreSQL")
struct PostgresOrderCancelClaimTests {
    @Test func aSecondClaimForgetsTheFailedRefundOfTheFirst() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            let order = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'claim@example.com', 'C', 'h')", customer)
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                    request_fingerprint, payment_intent_id, created_at, updated_at)
                VALUES ($1, $2, 'paid', 1200, 'JPY', 'pm_card_visa', 'k', 'f', 'pi_1', now(), now())
                """, order, customer)
            let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            func move(_ from: OrderStatus, _ to: OrderStatus, _ refund: RefundRecord? = nil) async throws -> Bool {
                try await store.transition(
                    orderID: order, from: from, to: to, restock: false, refund: refund, by: .customer, at: Date())
            }
            #expect(try await move(.paid, .refundPending))
            #expect(try await move(.refundPending, .paid, RefundRecord(id: "re_1", status: .failed)))
            #expect(try await store.order(id: order, customerID: customer)?.refund == RefundRecord(id: "re_1", status: .failed))
            #expect(try await move(.paid, .refundPending))
            let claimed = try #require(try await store.order(id: order, customerID: customer))
            #expect(claimed.status == .refundPending)
            #expect(claimed.refund == nil, "the second claim's refund is not the first's")
            #expect(try await move(.refundPending, .refunded, RefundRecord(id: "re_2", status: .succeeded)))
            #expect(try await store.order(id: order, customerID: customer)?.refund == RefundRecord(id: "re_2", status: .succeeded))
        }
    }
}
