import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// An order's status events take the time the service gave the change, as its placing event
/// does: one clock for all of an order's events. They took the database's transaction start.
@Suite("Order event times on real PostgreSQL")
struct PostgresOrderEventTimeTests {
    @Test func aStatusEventTakesTheTimeOfItsChange() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            let order = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'events@example.com', 'E', 'h')", customer)
            let placed = Date(timeIntervalSince1970: 1_700_000_000)
            try await db.pool.query(
                """
                INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                    request_fingerprint, created_at, updated_at)
                VALUES ($1, $2, 'pending_payment', 1200, 'JPY', 'pm_card_visa', 'k', 'f', $3, $3)
                """, order, customer, placed)
            let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            let paid = placed.addingTimeInterval(90)
            _ = try await store.markPaid(orderID: order, at: paid)
            let cancelled = paid.addingTimeInterval(60)
            #expect(
                try await store.transition(
                    orderID: order, from: .paid, to: .refundPending, restock: false, refund: nil, by: .customer, at: cancelled))
            let events = try #require(try await store.order(id: order, customerID: customer)).events
            #expect(events.map(\.type) == ["placed", "status_changed", "status_changed"])
            #expect(events.map(\.at) == [placed, paid, cancelled])
        }
    }
}
