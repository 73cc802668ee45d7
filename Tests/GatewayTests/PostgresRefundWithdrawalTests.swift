import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// A staff refund's restock on real PostgreSQL: the units it takes off what is left to ship come
/// back when it fails, to an order shipped meanwhile too; and while a refund is unsettled the
/// customer's account is not deleted.
@Suite("Withdrawn units of a staff refund on real PostgreSQL")
struct PostgresRefundWithdrawalTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// A paid order of 3 of one variant, nothing shipped: its id, the variant's.
    static func paidOrder(_ db: TestDatabase, customer: UUID) async throws -> (order: UUID, variant: UUID) {
        let item = try await TestRows.insertItem(db, stock: 10)
        let order = UUID()
        try await db.pool.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, payment_intent_id,
                                idempotency_key, request_fingerprint, created_at, updated_at)
            VALUES ($1, $2, 'paid', 300, 'JPY', 'pm_card_visa', 'pi_w', 'k', 'f', now(), now())
            """, order, customer)
        try await TestRows.insertOrderLine(db, order: order, item: item, price: 100, quantity: 3)
        return (order, try await TestRows.variantID(of: item, db))
    }

    @Test func aFailedRefundGivesItsUnitsBackToShipEvenToAShippedOrder() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'w@example.com', 'W', 'x')", customer)
            let (order, variant) = try await Self.paidOrder(db, customer: customer)
            let refunds = PostgresRefundStore(database: db.pool)
            let request = RefundRequest(
                orderID: order, amount: nil, lines: [RefundLine(variantID: variant, quantity: 1)], reason: .other, restock: true,
                idempotencyKey: "r1")
            let (refund, _) = try await refunds.reserveRefund(id: UUID(), request: request, at: Self.now)

            // The rest ships: shipped, the refunded unit withdrawn.
            let fulfilment = PostgresFulfilmentStore(orders: PostgresOrderStore(database: db.pool, currency: Currency("JPY")!))
            let shipment = try await fulfilment.ship(
                orderID: order, shipmentID: UUID(), carrier: "Yamato", trackingNumber: "1", lines: nil, at: Self.now)
            #expect(shipment.lines.map(\.quantity) == [2])
            func fulfilmentStatus() async throws -> String {
                try await db.pool.query("SELECT fulfilment_status FROM orders WHERE id = $1", order).rows[0].decode("fulfilment_status")
            }
            #expect(try await fulfilmentStatus() == "shipped")

            // The refund fails: its unit is the customer's again, to ship.
            _ = try await refunds.recordRefund(id: refund.id, status: .failed, providerRefundID: nil, at: Self.now)
            #expect(try await fulfilmentStatus() == "partially_shipped")
            let rest = try await fulfilment.ship(
                orderID: order, shipmentID: UUID(), carrier: "Yamato", trackingNumber: "2", lines: nil, at: Self.now)
            #expect(rest.lines.map(\.quantity) == [1])
            #expect(try await fulfilmentStatus() == "shipped")

            // Delivered, with a staff refund not settled yet: the account stays while it may fail.
            _ = try await fulfilment.deliver(shipmentID: shipment.id, at: Self.now)
            _ = try await fulfilment.deliver(shipmentID: rest.id, at: Self.now)
            #expect(try await fulfilmentStatus() == "delivered")
            let goodwill = RefundRequest(
                orderID: order, amount: Money(amount: 100, currency: Currency("JPY")!), lines: [], reason: .other, restock: false,
                idempotencyKey: "r2")
            let (pending, _) = try await refunds.reserveRefund(id: UUID(), request: goodwill, at: Self.now)
            let settings = PostgresCustomerSettingStore(database: db.pool)
            #expect(try await settings.deleteAccount(customerID: customer, at: Self.now) == .ordersInProgress([order]))
            _ = try await refunds.recordRefund(id: pending.id, status: .succeeded, providerRefundID: "re_2", at: Self.now)
            #expect(try await settings.deleteAccount(customerID: customer, at: Self.now) == .deleted)
        }
    }
}
