import Domain
import Foundation
import Postgres

/// The pushes order changes queue (`push_notifications`, Migrations/0025): claimed with
/// `FOR UPDATE SKIP LOCKED`, a claim id and a lease (`claimed_until`), so workers on every
/// instance share the queue; every later change names the claim, so a worker whose lease ran
/// out changes nothing another now holds. Times are the instances' clocks: keep them in step
/// (NTP), as for every lease.
public struct PostgresPushQueue: PushQueue {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push] {
        let rows = try await translatingUnavailable {
            try await database.withTransaction { connection in
                // Pushes no one holds that no device of the order's customer can take any more,
                // and stale ones.
                try await connection.query(
                    """
                    UPDATE push_notifications SET gave_up_at = $1,
                        last_error = CASE WHEN created_at < $2 THEN 'stale' ELSE 'device removed' END
                    WHERE id IN (
                        SELECT p.id FROM push_notifications p JOIN orders o ON o.id = p.order_id
                        WHERE p.sent_at IS NULL AND p.gave_up_at IS NULL AND p.next_attempt_at <= $1
                          AND (p.claimed_until IS NULL OR p.claimed_until <= $1)
                          AND (p.created_at < $2 OR NOT EXISTS (
                              SELECT 1 FROM devices d WHERE d.token = p.device_token AND d.customer_id = o.customer_id))
                        FOR UPDATE OF p SKIP LOCKED)
                    """, now, staleBefore)
                return try await connection.query(
                    """
                    WITH due AS MATERIALIZED (
                        SELECT id FROM push_notifications
                        WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $1
                          AND (claimed_until IS NULL OR claimed_until <= $1)
                        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                    UPDATE push_notifications p
                    SET claim_id = gen_random_uuid(), claimed_at = $1, claimed_until = $2, attempts = attempts + 1
                    FROM due WHERE p.id = due.id
                    RETURNING p.id, p.device_token, p.order_id, p.event, p.locale, p.attempts, p.claim_id, p.claimed_at
                    """, now, until, limit
                ).rows
            }
        }
        return try rows.map { row in
            Push(
                id: try row.decode("id"), deviceToken: try row.decode("device_token"), orderID: try row.decode("order_id"),
                event: try row.enumeration("event", as: PushEvent.self),
                locale: try row.decode("locale"), attempts: try row.decode("attempts"), claimID: try row.decode("claim_id"),
                claimedAt: try row.decode("claimed_at"))
        }
    }

    public func markSent(_ push: Push, at: Date) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                UPDATE push_notifications SET sent_at = $3, claimed_until = NULL, last_error = NULL
                WHERE id = $1 AND claim_id = $2 AND sent_at IS NULL AND gave_up_at IS NULL
                """, push.id, push.claimID, at)
        }
    }

    public func retry(_ push: Push, at: Date, reason: String) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                UPDATE push_notifications SET next_attempt_at = $3, claimed_until = NULL, last_error = $4
                WHERE id = $1 AND claim_id = $2 AND sent_at IS NULL AND gave_up_at IS NULL
                """, push.id, push.claimID, at, reason)
        }
    }

    public func giveUp(_ push: Push, at: Date, reason: String) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                UPDATE push_notifications SET gave_up_at = $3, claimed_until = NULL, last_error = $4
                WHERE id = $1 AND claim_id = $2 AND sent_at IS NULL AND gave_up_at IS NULL
                """, push.id, push.claimID, at, reason)
        }
    }

    public func removeDevice(of push: Push, at: Date) async throws {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                let removed = try await connection.query(
                    "DELETE FROM devices WHERE token = $1 AND updated_at <= $2 RETURNING token", push.deviceToken, push.claimedAt)
                if removed.rows.isEmpty {
                    // Registered again since the claim: the token is the app's after all; only
                    // this push is done.
                    try await connection.query(
                        """
                        UPDATE push_notifications SET gave_up_at = $3, claimed_until = NULL, last_error = 'unregistered'
                        WHERE id = $1 AND claim_id = $2 AND sent_at IS NULL AND gave_up_at IS NULL
                        """, push.id, push.claimID, at)
                } else {
                    try await connection.query(
                        """
                        UPDATE push_notifications SET gave_up_at = $2, claimed_until = NULL, last_error = 'unregistered'
                        WHERE device_token = $1 AND sent_at IS NULL AND gave_up_at IS NULL
                        """, push.deviceToken, at)
                }
            }
        }
    }

    public func purge(settledBefore before: Date, staleBefore: Date, now: Date) async throws -> Int {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await connection.query(
                    """
                    UPDATE push_notifications SET gave_up_at = $2, last_error = 'stale'
                    WHERE sent_at IS NULL AND gave_up_at IS NULL AND created_at < $1 AND (claimed_until IS NULL OR claimed_until < $2)
                    """, staleBefore, now)
                return try await connection.query(
                    "DELETE FROM push_notifications WHERE COALESCE(sent_at, gave_up_at) < $1 RETURNING id", before
                ).rows.count
            }
        }
    }
}
