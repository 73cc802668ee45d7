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
            let customer = try await TestRows.insertCustomer(db)
            let placed = Date(timeIntervalSince1970: 1_700_000_000)
            let order = try await TestRows.insertOrder(db, customer: customer, status: "pending_payment", at: placed)
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
