import Domain
import Foundation
import Postgres

/// The pushes order changes queue (`push_notifications`, Migrations/0025): claimed with
/// `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so workers on every instance share
/// the queue and none sends a push another holds.
public struct PostgresPushQueue: PushQueue {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push] {
        let rows = try await translatingUnavailable {
            try await database.withTransaction { connection in
                // Pushes no device of the order's customer can take any more, and stale ones.
                try await connection.query(
                    """
                    UPDATE push_notifications p SET gave_up_at = $1,
                        last_error = CASE WHEN p.created_at < $2 THEN 'stale' ELSE 'device removed' END
                    FROM orders o
                    WHERE o.id = p.order_id AND p.sent_at IS NULL AND p.gave_up_at IS NULL AND p.next_attempt_at <= $1
                      AND (p.created_at < $2 OR NOT EXISTS (
                          SELECT 1 FROM devices d WHERE d.token = p.device_token AND d.customer_id = o.customer_id))
                    """, now, staleBefore)
                return try await connection.query(
                    """
                    UPDATE push_notifications SET claimed_until = $2, attempts = attempts + 1
                    WHERE id IN (
                        SELECT id FROM push_notifications
                        WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $1
                          AND (claimed_until IS NULL OR claimed_until <= $1)
                        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                    RETURNING id, device_token, order_id, event, locale, attempts
                    """, now, until, limit
                ).rows
            }
        }
        return try rows.map { row in
            guard let event = PushEvent(rawValue: try row.decode("event")) else {
                throw PostgresError.decoding(column: "event", swiftType: "PushEvent", postgresType: "text")
            }
            return Push(
                id: try row.decode("id"), deviceToken: try row.decode("device_token"), orderID: try row.decode("order_id"), event: event,
                locale: try row.decode("locale"), attempts: try row.decode("attempts"))
        }
    }

    public func markSent(_ id: UUID, at: Date) async throws {
        try await translatingUnavailable {
            try await database.query(
                "UPDATE push_notifications SET sent_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1 AND sent_at IS NULL",
                id, at)
        }
    }

    public func retry(_ id: UUID, at: Date, reason: String) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                UPDATE push_notifications SET next_attempt_at = $2, claimed_until = NULL, last_error = $3
                WHERE id = $1 AND sent_at IS NULL
                """, id, at, reason)
        }
    }

    public func giveUp(_ id: UUID, at: Date, reason: String) async throws {
        try await translatingUnavailable {
            try await database.query(
                "UPDATE push_notifications SET gave_up_at = $2, claimed_until = NULL, last_error = $3 WHERE id = $1 AND sent_at IS NULL",
                id, at, reason)
        }
    }

    public func removeDevice(token: String, at: Date) async throws {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await connection.query("DELETE FROM devices WHERE token = $1", token)
                try await connection.query(
                    """
                    UPDATE push_notifications SET gave_up_at = $2, claimed_until = NULL, last_error = 'unregistered'
                    WHERE device_token = $1 AND sent_at IS NULL AND gave_up_at IS NULL
                    """, token, at)
            }
        }
    }
}
