import Domain
import Foundation
import Postgres

/// `CartStore` on PostgreSQL: table `cart_lines` joined with `items`.
public struct PostgresCartStore: CartStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func lines(customerID: UUID) async throws -> [CartLine] {
        try await translatingUnavailable {
            try await database.query(
                """
                SELECT l.item_id, i.name, i.price_amount, i.price_currency, l.quantity
                FROM cart_lines l JOIN items i ON i.id = l.item_id
                WHERE l.customer_id = $1 ORDER BY l.updated_at, l.item_id
                """, customerID
            ).rows.map { row in
                return CartLine(
                    itemID: try row.decode("item_id"), name: try row.decode("name"),
                    unitPrice: try row.money(amount: "price_amount", currency: "price_currency"),
                    quantity: try row.decode("quantity"))
            }
        }
    }

    public func setQuantity(customerID: UUID, itemID: UUID, quantity: Int) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                INSERT INTO cart_lines (customer_id, item_id, quantity) VALUES ($1, $2, $3)
                ON CONFLICT (customer_id, item_id) DO UPDATE SET quantity = EXCLUDED.quantity
                """, customerID, itemID, quantity)
        }
    }

    public func remove(customerID: UUID, itemID: UUID) async throws {
        try await translatingUnavailable {
            try await database.query("DELETE FROM cart_lines WHERE customer_id = $1 AND item_id = $2", customerID, itemID)
        }
    }
}
