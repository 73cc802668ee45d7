import Domain
import Foundation
import Postgres

/// Orders waiting on the customer (3-D Secure) and the lookup webhooks need.
extension PostgresOrderStore {
    public func markRequiresAction(orderID: UUID, action: PaymentAction, expiresAt: Date, at: Date) async throws -> Order? {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                UPDATE orders SET status = 'requires_action', action_client_secret = $2, action_type = $3,
                                  action_redirect_url = $4, action_expires_at = $5, updated_at = $6
                WHERE id = $1 AND status = 'pending_payment' RETURNING customer_id
                """, orderID, action.clientSecret, action.nextActionType, action.redirectURL, expiresAt, at
            ).rows
        }
        guard let row = rows.first else { return nil }
        return try await load(orderID, customerID: try row.decode("customer_id"))
    }

    public func claimOrdersAwaitingAction(expiredBefore expiry: Date, changedBefore cutoff: Date, at: Date, limit: Int) async throws
        -> [Order]
    {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                WITH due (claimed_id) AS MATERIALIZED (
                    SELECT id FROM orders
                    WHERE status = 'requires_action' AND action_expires_at < $1 AND (updated_at < action_expires_at OR updated_at < $2)
                    ORDER BY updated_at LIMIT $4 FOR NO KEY UPDATE SKIP LOCKED)
                UPDATE orders SET updated_at = $3 FROM due WHERE orders.id = due.claimed_id
                RETURNING \(Self.columns)
                """, expiry, cutoff, at, limit
            ).rows
        }
        return try orders(from: rows)
    }

    public func order(paymentIntentID: String) async throws -> Order? {
        let rows = try await translatingUnavailable {
            try await database.query("SELECT \(Self.columns) FROM orders WHERE payment_intent_id = $1", paymentIntentID).rows
        }
        return try orders(from: rows).first
    }
}
