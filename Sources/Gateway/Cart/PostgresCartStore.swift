import Domain
import Foundation
import Postgres

/// `CartStore` on PostgreSQL: table `cart_lines` joined with `item_variants` and `items`.
public struct PostgresCartStore: CartStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func lines(customerID: UUID) async throws -> [CartLine] {
        try await translatingUnavailable {
            try await database.query(
                """
                SELECT l.variant_id, v.item_id, v.sku, v.options, i.options AS item_options, i.name, v.price_amount,
                       v.price_currency, l.quantity, i.tax_class
                FROM cart_lines l JOIN item_variants v ON v.id = l.variant_id JOIN items i ON i.id = v.item_id
                WHERE l.customer_id = $1 ORDER BY l.updated_at, l.variant_id
                """, customerID
            ).rows.map { row in
                CartLine(
                    itemID: try row.decode("item_id"), variantID: try row.decode("variant_id"), sku: try row.decode("sku"),
                    name: try row.decode("name"),
                    options: try CatalogJSON.choice(try row.decode("options"), in: try CatalogJSON.options(try row.decode("item_options"))),
                    taxClass: try row.enumeration("tax_class", as: TaxClass.self),
                    unitPrice: try row.money(amount: "price_amount", currency: "price_currency"),
                    quantity: try row.decode("quantity"))
            }
        }
    }

    /// The table's trigger (Migrations/0038_write_checks.sql) refuses a new line past
    /// `Cart.maxLines` (`cart_lines_per_customer`) and a line of a variant removed or of an item
    /// archived, also while this runs (`cart_lines_live_variant`); a customer deleted meanwhile is
    /// `translatingUnavailable`'s to report.
    public func setQuantity(customerID: UUID, variantID: UUID, quantity: Int) async throws {
        do {
            try await translatingUnavailable {
                // `updated_at` is left as it was: it orders the lines by when they were added.
                try await database.query(
                    """
                    INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES ($1, $2, $3)
                    ON CONFLICT (customer_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity
                    """, customerID, variantID, quantity)
            }
        } catch let error as PostgresError where error.constraint == "cart_lines_per_customer" {
            throw CartFull()
        } catch let error as PostgresError where error.constraint == "cart_lines_live_variant" {
            throw VariantOffSale()
        }
    }

    public func remove(customerID: UUID, variantID: UUID) async throws {
        try await translatingUnavailable {
            try await database.query("DELETE FROM cart_lines WHERE customer_id = $1 AND variant_id = $2", customerID, variantID)
        }
    }

    public func remove(customerID: UUID, itemID: UUID) async throws {
        try await translatingUnavailable {
            try await database.query(
                """
                DELETE FROM cart_lines l USING item_variants v
                WHERE l.customer_id = $1 AND v.id = l.variant_id AND v.item_id = $2
                """, customerID, itemID)
        }
    }
}
