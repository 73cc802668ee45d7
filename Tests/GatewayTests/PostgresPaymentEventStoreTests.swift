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
}
