import Domain
import Foundation
import Postgres

/// Devices in `devices` (Migrations/0025), keyed by token: one upsert registers a device,
/// moves it from another customer (whose waiting pushes it then never gets), or updates it; a
/// customer keeps the `Device.maximumPerCustomer` most recently registered.
public struct PostgresDeviceStore: DeviceStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func register(
        token: String, customerID: UUID, platform: DevicePlatform, locale: String, at: Date
    ) async throws -> (device: Device, created: Bool) {
        let row = try await translatingUnavailable {
            try await database.withTransaction { connection in
                // One registration of a customer at a time, so the cap below counts right.
                try await connection.query("SELECT 1 FROM customers WHERE id = $1 FOR NO KEY UPDATE", customerID)
                // `mine`: the token was this customer's already, so this updates their device; one
                // that moves from another customer is a new device of this one.
                let row = try await connection.query(
                    """
                    WITH before AS (SELECT customer_id FROM devices WHERE token = $1)
                    INSERT INTO devices (token, customer_id, platform, locale, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $5)
                    ON CONFLICT (token) DO UPDATE SET customer_id = $2, platform = $3, locale = $4, updated_at = $5,
                        created_at = CASE WHEN devices.customer_id = $2 THEN devices.created_at ELSE $5 END
                    RETURNING token, platform, locale, created_at, updated_at,
                        COALESCE((SELECT customer_id = $2 FROM before), false) AS mine
                    """, token, customerID, platform.rawValue, locale, at
                ).rows[0]
                // The phone is another customer's now: what waits for the one before never reaches it.
                try await connection.query(
                    """
                    UPDATE push_notifications SET gave_up_at = $3, claimed_until = NULL, last_error = 'device moved'
                    WHERE device_token = $1 AND sent_at IS NULL AND gave_up_at IS NULL
                      AND order_id IN (SELECT id FROM orders WHERE customer_id <> $2)
                    """, token, customerID, at)
                // A customer's devices past the cap: the longest unregistered go.
                try await connection.query(
                    """
                    DELETE FROM devices WHERE customer_id = $1 AND token NOT IN (
                        SELECT token FROM devices WHERE customer_id = $1 ORDER BY updated_at DESC, token LIMIT $2)
                    """, customerID, Device.maximumPerCustomer)
                return row
            }
        }
        let stored = try row.enumeration("platform", as: DevicePlatform.self)
        let device = Device(
            token: try row.decode("token"), platform: stored, locale: try row.decode("locale"), createdAt: try row.decode("created_at"),
            updatedAt: try row.decode("updated_at"))
        return (device, !(try row.decode("mine", as: Bool.self)))
    }

    public func remove(token: String, customerID: UUID) async throws -> Bool {
        let rows = try await translatingUnavailable {
            try await database.query("DELETE FROM devices WHERE token = $1 AND customer_id = $2 RETURNING token", token, customerID).rows
        }
        return !rows.isEmpty
    }
}
