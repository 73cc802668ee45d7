import Domain
import Foundation
import Postgres

/// What shipments, returns and refunds share: units of an order's lines asked for against what
/// is left of each, a shipped order's fulfilment as its units stand, and the actor an order's
/// events name.
enum OrderUnits {
    /// The units asked for by variant, or the first line, by its index, that names a variant the
    /// order lacks or asks for more than is `left` of its variant, with what is left. The
    /// variants are distinct (`DistinctLines`, checked before).
    static func asked(
        _ lines: [(variantID: UUID, quantity: Int)], left: [UUID: Int]
    ) -> Result<[UUID: Int], Refused> {
        var asked: [UUID: Int] = [:]
        for (index, line) in lines.enumerated() {
            guard let available = left[line.variantID] else { return .failure(.notOrdered(index: index)) }
            guard line.quantity <= max(0, available) else { return .failure(.beyond(index: index, left: max(0, available))) }
            asked[line.variantID] = line.quantity
        }
        return .success(asked)
    }

    enum Refused: Error {
        case notOrdered(index: Int)
        case beyond(index: Int, left: Int)
    }

    /// Sets a paid order that has shipped to what its units say, after a refund withdrew units
    /// or gave them back: `partially_shipped` while some are left to ship, else `shipped`, or
    /// `delivered` once every shipment is. An order unchanged is not written (no event).
    /// - Throws: `PostgresError`.
    static func settleFulfilment(of orderID: UUID, at: Date, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            WITH due AS (
                SELECT CASE
                    WHEN EXISTS (SELECT 1 FROM order_lines WHERE order_id = $1 AND quantity > shipped_quantity + withdrawn_quantity)
                        THEN 'partially_shipped'
                    WHEN EXISTS (SELECT 1 FROM shipments WHERE order_id = $1 AND delivered_at IS NULL) THEN 'shipped'
                    ELSE 'delivered' END AS fulfilment
            )
            UPDATE orders SET fulfilment_status = due.fulfilment, updated_at = $2 FROM due
            WHERE id = $1 AND status = 'paid' AND fulfilment_status <> 'unfulfilled' AND fulfilment_status <> due.fulfilment
            """, orderID, at)
    }

    /// Locks the variants of the order's lines in id order, as a checkout locks its cart's, before
    /// a statement gives stock back to them through a join, whose plan would take them in its own
    /// order: a restock and a checkout taking two variants in opposite orders waited on each
    /// other until PostgreSQL's deadlock detector aborted one.
    /// - Throws: `PostgresError`.
    static func lockVariants(of orderID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            SELECT 1 FROM item_variants WHERE id IN (SELECT variant_id FROM order_lines WHERE order_id = $1)
            ORDER BY id FOR NO KEY UPDATE
            """, orderID)
    }

    /// `lockVariants(of:)` for the variants of one refund's lines only.
    /// - Throws: `PostgresError`.
    static func lockVariants(ofRefund refundID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            SELECT 1 FROM item_variants WHERE id IN (SELECT variant_id FROM refund_lines WHERE refund_id = $1)
            ORDER BY id FOR NO KEY UPDATE
            """, refundID)
    }

    /// Names who makes the changes of the transaction on `connection`: the events the orders
    /// trigger writes take it (`order_event_actor()`, Migrations/0022_fulfilment.sql).
    /// - Throws: `PostgresError`.
    static func name(_ actor: EventActor, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT set_config('storefront.actor', $1, true)", actor.rawValue)
    }
}
