import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A staff refund that restocks every unit left of an order that shipped nothing, on real
/// PostgreSQL: the order is over, so its shipping fee goes back too and it becomes `refunded`.
/// It stayed `paid` with nothing to ship: a shipment answered 409, the staff's list of orders to
/// ship kept it, and the customer's account could not be deleted.
@Suite("A refund that leaves nothing to ship on real PostgreSQL")
struct PostgresRefundEndingOrderTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let yen = Currency("JPY")!

    @Test func restockingEveryUnitLeftOfAnUnshippedOrderRefundsItsShippingToo() async throws {
        try await TestDatabase.with { db in
            // 3 units at 100 and 800 of shipping.
            let (order, item, variant) = try await TestRows.insertPaidOrder(
                db, customer: try await TestRows.insertCustomer(db), total: 1100)
            let refunds = PostgresRefundStore(database: db.pool)
            func refund(_ quantity: Int, amount: Int64? = nil, key: String) async throws -> Refund {
                let request = RefundRequest(
                    orderID: order, amount: amount.map { Money(amount: $0, currency: Self.yen) },
                    lines: [RefundLine(variantID: variant, quantity: quantity)], reason: .requestedByCustomer, restock: true,
                    idempotencyKey: key)
                return try await refunds.reserveRefund(id: UUID(), request: request, at: Self.now).refund
            }

            // One unit of three: the lines' value only, the rest still ships.
            let first = try await refund(1, key: "one")
            #expect(first.amount.amount == 100)
            _ = try await refunds.recordRefund(id: first.id, status: .succeeded, providerRefundID: "re_1", at: Self.now)

            // The last two with an amount short of what is left: refused by the amount.
            await #expect(throws: RefundError.invalid([FieldError("amount", Self.shortMessage)])) {
                _ = try await refund(2, amount: 200, key: "short")
            }
            // Without an amount: all that is left, the shipping fee with the units.
            let last = try await refund(2, key: "last")
            #expect(last.amount.amount == 1000)
            _ = try await refunds.recordRefund(id: last.id, status: .succeeded, providerRefundID: "re_2", at: Self.now)
            let status: String = try await db.pool.query("SELECT status FROM orders WHERE id = $1", order).rows[0].decode("status")
            #expect(status == "refunded")
            #expect(try await TestRows.stock(db, item: item) == 13)
        }
    }

    /// While an earlier restocking refund is unsettled, the rest is refunded by its lines' value
    /// only: if that refund fails its units come back to ship, and the fee would be gone.
    @Test func anUnsettledRefundKeepsTheRestFromEndingTheOrder() async throws {
        try await TestDatabase.with { db in
            let (order, _, variant) = try await TestRows.insertPaidOrder(db, customer: try await TestRows.insertCustomer(db), total: 1100)
            let refunds = PostgresRefundStore(database: db.pool)
            for (quantity, key, expected) in [(1, "pending", Int64(100)), (2, "rest", 200)] {
                let request = RefundRequest(
                    orderID: order, amount: nil, lines: [RefundLine(variantID: variant, quantity: quantity)], reason: .other, restock: true,
                    idempotencyKey: key)
                #expect(try await refunds.reserveRefund(id: UUID(), request: request, at: Self.now).refund.amount.amount == expected)
            }
        }
    }

    static let shortMessage =
        "must be 1000, all that is left, or absent: these lines leave nothing to ship on an order that shipped nothing"

    /// Without restocking the units still ship (a goodwill refund): the fee stays.
    @Test func refundingEveryUnitWithoutRestockKeepsTheShipping() async throws {
        try await TestDatabase.with { db in
            let (order, _, variant) = try await TestRows.insertPaidOrder(db, customer: try await TestRows.insertCustomer(db), total: 1100)
            let request = RefundRequest(
                orderID: order, amount: nil, lines: [RefundLine(variantID: variant, quantity: 3)],
                reason: .other, restock: false, idempotencyKey: "g")
            #expect(
                try await PostgresRefundStore(database: db.pool).reserveRefund(id: UUID(), request: request, at: Self.now).refund.amount
                    .amount == 300)
        }
    }
}
