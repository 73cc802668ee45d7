import Domain
import Foundation
import Postgres

/// `CustomerSettingStore` on PostgreSQL: `customers` and `sessions`.
public struct PostgresCustomerSettingStore: CustomerSettingStore {
    static let columns = "id, email, name, locale, marketing_opt_in, created_at"

    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func settings(customerID: UUID) async throws -> CustomerSettings? {
        try await translatingUnavailable {
            try await database.query("SELECT \(Self.columns) FROM customers WHERE id = $1", customerID).rows.first.map(Self.settings(from:))
        }
    }

    public func update(customerID: UUID, changes: SettingsChanges) async throws -> CustomerSettings? {
        do {
            return try await translatingUnavailable {
                try await database.query(
                    """
                    UPDATE customers SET
                        email = COALESCE($2, email),
                        name = COALESCE($3, name),
                        locale = COALESCE($4, locale),
                        marketing_opt_in = COALESCE($5, marketing_opt_in)
                    WHERE id = $1 RETURNING \(Self.columns)
                    """,
                    customerID, changes.email, changes.name, changes.locale, changes.marketingOptIn
                ).rows.first.map(Self.settings(from:))
            }
        } catch let error as PostgresError where error.constraint == "customers_email_key" {
            throw AccountError.emailTaken
        }
    }

    public func passwordHash(customerID: UUID) async throws -> String? {
        try await translatingUnavailable {
            try await database.query("SELECT password_hash FROM customers WHERE id = $1", customerID).rows.first?.decode("password_hash")
        }
    }

    public func changePassword(customerID: UUID, newHash: String, keptSession: [UInt8]) async throws {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // A new credentials version ends every session opened under the old one, even one
                // a concurrent sign-in with the old password inserts after the DELETE below.
                try await connection.query(
                    "UPDATE customers SET password_hash = $2, credentials_version = credentials_version + 1 WHERE id = $1", customerID,
                    newHash)
                try await connection.query(
                    """
                    UPDATE sessions SET credentials_version = c.credentials_version FROM customers c
                    WHERE c.id = $1 AND sessions.customer_id = $1 AND sessions.token_hash = $2
                    """, customerID, keptSession)
                try await connection.query("DELETE FROM sessions WHERE customer_id = $1 AND token_hash <> $2", customerID, keptSession)
            }
        }
    }

    public func deleteAccount(customerID: UUID, at: Date) async throws -> AccountDeletion {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // The customer's row first, FOR UPDATE: a checkout placing an order for it holds the
                // foreign key's share lock until it commits, so its order is seen below.
                try await connection.query("SELECT 1 FROM customers WHERE id = $1 FOR UPDATE", customerID)
                // A refund_pending order may go back to paid (its refund failing) and need shipping;
                // so may one with a staff refund (a return's included) not settled yet.
                let inProgress = try await connection.query(
                    """
                    SELECT o.id FROM orders o
                    WHERE o.customer_id = $1
                      AND (o.status IN ('pending_payment', 'requires_action', 'refund_pending')
                           OR (o.status = 'paid' AND o.fulfilment_status <> 'delivered')
                           OR EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.id AND r.status IN ('pending', 'requires_action')))
                    ORDER BY o.created_at, o.id LIMIT 100
                    """, customerID)
                guard inProgress.rows.isEmpty else { return .ordersInProgress(try inProgress.rows.map { try $0.decode("id") }) }
                // The erased email's domain has no dot: no address a live account may take
                // (`AccountRules.emailIsPlausible`) is it, in any case, so the deletion never
                // meets a live account on the unique email. (`@deleted.invalid` was taken first.)
                let erased = try await connection.query(
                    """
                    UPDATE customers SET email = 'deleted-' || id || '@deleted', name = 'deleted', password_hash = '!',
                                         marketing_opt_in = false, credentials_version = credentials_version + 1, deleted_at = $2
                    WHERE id = $1 AND deleted_at IS NULL RETURNING id
                    """, customerID, at)
                guard !erased.rows.isEmpty else { return .noCustomer }
                // The hand-kept scenes' personal rows, and every generated scene's a customer owns.
                for table in ["sessions", "cart_lines", "devices", "resumable_uploads"] + CustomerOwnedTables.names {
                    try await connection.query("DELETE FROM \(table) WHERE customer_id = $1", customerID)
                }
                // The pushes of its orders name its phones' tokens.
                try await connection.query(
                    "DELETE FROM push_notifications WHERE order_id IN (SELECT id FROM orders WHERE customer_id = $1)", customerID)
                // Orders stay for the accounting period; where they went is personal, its country and
                // region (the tax's jurisdiction) are not.
                try await connection.query(
                    """
                    UPDATE orders SET shipping = jsonb_set(shipping, '{address}',
                        jsonb_build_object('recipient', '', 'phone', '', 'postal_code', '', 'country', shipping->'address'->'country',
                                           'region', shipping->'address'->'region', 'city', '', 'line1', '', 'line2', NULL))
                    WHERE customer_id = $1 AND shipping IS NOT NULL
                    """, customerID)
                return .deleted
            }
        }
    }

    static func settings(from row: PostgresRow) throws -> CustomerSettings {
        CustomerSettings(
            id: try row.decode("id"), email: try row.decode("email"), name: try row.decode("name"), locale: try row.decode("locale"),
            marketingOptIn: try row.decode("marketing_opt_in"), createdAt: try row.decode("created_at"))
    }
}
