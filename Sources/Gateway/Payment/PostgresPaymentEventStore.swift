import Domain
import Foundation
import Postgres

/// `PaymentEventStore` on PostgreSQL: table `payment_events` (Migrations/0012_payment_events.sql).
public struct PostgresPaymentEventStore: PaymentEventStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func recordOnce(_ event: PaymentEvent, at: Date) async throws -> Bool {
        try await translatingUnavailable {
            !(try await database.query(
                """
                INSERT INTO payment_events (id, type, payment_intent_id, received_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, event.id, event.type, event.paymentIntentID, at
            ).rows.isEmpty)
        }
    }

    public func markHandled(eventID: String, at: Date) async throws {
        try await translatingUnavailable {
            try await database.query("UPDATE payment_events SET handled_at = $2 WHERE id = $1", eventID, at)
        }
    }

    public func unhandled(receivedAfter after: Date, before: Date, limit: Int) async throws -> [PaymentEvent] {
        try await translatingUnavailable {
            try await database.query(
                """
                SELECT id, type, payment_intent_id FROM payment_events
                WHERE handled_at IS NULL AND received_at > $1 AND received_at < $2 ORDER BY received_at DESC LIMIT $3
                """, after, before, limit
            ).rows.map { row in
                PaymentEvent(id: try row.decode("id"), type: try row.decode("type"), paymentIntentID: try row.decode("payment_intent_id"))
            }
        }
    }

    /// At most 10,000 a pass, so one pass never holds a long transaction.
    public func purge(receivedBefore before: Date) async throws -> Int {
        try await translatingUnavailable {
            try await database.query(
                """
                DELETE FROM payment_events WHERE id IN (SELECT id FROM payment_events WHERE received_at < $1 LIMIT 10000)
                RETURNING 1
                """, before
            ).rows.count
        }
    }
}
