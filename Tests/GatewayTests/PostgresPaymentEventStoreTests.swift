import Domain
import Foundation
import Gateway
import TestSupport
import Testing

@Suite("Payment events on real PostgreSQL")
struct PostgresPaymentEventStoreTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// Each event is recorded once; the purge forgets those received before its cutoff and
    /// keeps the rest, which are still known as redeliveries.
    @Test func eventsAreRecordedOnceAndForgottenByAge() async throws {
        try await TestDatabase.with { db throws in
            let events = PostgresPaymentEventStore(database: db.pool)
            let old = PaymentEvent(id: "evt_old", type: "payment_intent.succeeded", paymentIntentID: "pi_1")
            let recent = PaymentEvent(id: "evt_recent", type: "charge.refunded", paymentIntentID: "pi_1")
            #expect(try await events.recordOnce(old, at: Self.now.addingTimeInterval(-40 * 24 * 3600)) == true)
            #expect(try await events.recordOnce(recent, at: Self.now) == true)
            #expect(try await events.recordOnce(recent, at: Self.now) == false, "a redelivery")
            #expect(try await events.purge(receivedBefore: Self.now.addingTimeInterval(-30 * 24 * 3600)) == 1)
            #expect(try await events.recordOnce(recent, at: Self.now) == false, "kept: still a redelivery")
            #expect(try await events.recordOnce(old, at: Self.now) == true, "forgotten: new again")
            #expect(try await events.purge(receivedBefore: Self.now.addingTimeInterval(-30 * 24 * 3600)) == 0)
        }
    }

    /// The pass over events whose handling failed reads those not handled, in its window,
    /// newest first, at most its limit.
    @Test func unhandledEventsAreReadNewestFirstWithinTheirWindow() async throws {
        try await TestDatabase.with { db throws in
            let events = PostgresPaymentEventStore(database: db.pool)
            for (id, age) in [("evt_a", 10), ("evt_b", 100), ("evt_c", 200), ("evt_d", 300), ("evt_handled", 150), ("evt_old", 5000)] {
                let event = PaymentEvent(id: id, type: "payment_intent.succeeded", paymentIntentID: "pi_\(id)")
                #expect(try await events.recordOnce(event, at: Self.now.addingTimeInterval(-Double(age))))
            }
            try await events.markHandled(eventID: "evt_handled", at: Self.now)
            let window = (after: Self.now.addingTimeInterval(-1000), before: Self.now.addingTimeInterval(-60))
            let all = try await events.unhandled(receivedAfter: window.after, before: window.before, limit: 10)
            #expect(all.map(\.id) == ["evt_b", "evt_c", "evt_d"])
            #expect(all.first == PaymentEvent(id: "evt_b", type: "payment_intent.succeeded", paymentIntentID: "pi_evt_b"))
            #expect(
                try await events.unhandled(receivedAfter: window.after, before: window.before, limit: 2).map(\.id) == ["evt_b", "evt_c"])
        }
    }
}
