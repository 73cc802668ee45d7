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
            let customer = try await TestRows.insertCustomer(db)
            let order = try await TestRows.insertOrder(db, customer: customer, status: "paid", paymentIntent: "pi_1")
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
            // A stale answer about the first refund (a reconciler that read the first claim) is
            // refused: the second claim's refund is still to be settled.
            #expect(try await !move(.refundPending, .paid, RefundRecord(id: "re_1", status: .failed)))
            #expect(try await store.order(id: order, customerID: customer)?.status == .refundPending)
            #expect(try await move(.refundPending, .refunded, RefundRecord(id: "re_2", status: .succeeded)))
            #expect(try await store.order(id: order, customerID: customer)?.refund == RefundRecord(id: "re_2", status: .succeeded))
        }
    }
}
