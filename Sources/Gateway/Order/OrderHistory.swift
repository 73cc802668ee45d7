import Domain
import Foundation
import Postgres

/// The shipments and events of orders (Migrations/0022_fulfilment.sql), read for a page of
/// orders at once: a statement each, whatever the page's size.
enum OrderHistory {
    /// - Throws: `PostgresError`.
    static func shipments(of orders: [UUID], on executor: any PostgresExecutor) async throws -> [UUID: [Shipment]] {
        let rows = try await executor.query(
            """
            SELECT s.id, s.order_id, s.carrier, s.tracking_number, s.created_at, s.delivered_at,
                   COALESCE(json_agg(json_build_array(l.variant_id, l.quantity) ORDER BY l.variant_id)
                            FILTER (WHERE l.variant_id IS NOT NULL), '[]')::text AS lines
            FROM shipments s LEFT JOIN shipment_lines l ON l.shipment_id = s.id
            WHERE s.order_id = ANY($1::uuid[])
            GROUP BY s.id ORDER BY s.created_at, s.id
            """, PostgresUUIDArray(orders)
        ).rows
        var shipments: [UUID: [Shipment]] = [:]
        for row in rows {
            let shipment = try shipment(from: row)
            shipments[shipment.orderID, default: []].append(shipment)
        }
        return shipments
    }

    /// A row of the `shipments` query above (or of one shipment selected the same way).
    /// - Throws: `PostgresError.decoding`.
    static func shipment(from row: PostgresRow) throws -> Shipment {
        let linesJSON: String = try row.decode("lines")
        guard let pairs = try? JSONSerialization.jsonObject(with: Data(linesJSON.utf8)) as? [[Any]] else {
            throw PostgresError.decoding(column: "lines", swiftType: "[ShipmentLine]", postgresType: "json")
        }
        let lines = try pairs.map { pair in
            guard pair.count == 2, let id = (pair[0] as? String).flatMap(UUID.init(text:)), let quantity = pair[1] as? Int else {
                throw PostgresError.decoding(column: "lines", swiftType: "ShipmentLine", postgresType: "json")
            }
            return ShipmentLine(variantID: id, quantity: quantity)
        }
        return Shipment(
            id: try row.decode("id"), orderID: try row.decode("order_id"), carrier: try row.decode("carrier"),
            trackingNumber: try row.decode("tracking_number"), lines: lines, createdAt: try row.decode("created_at"),
            deliveredAt: try row.decode("delivered_at"))
    }

    /// - Throws: `PostgresError`.
    static func events(of orders: [UUID], on executor: any PostgresExecutor) async throws -> [UUID: [OrderEvent]] {
        let rows = try await executor.query(
            "SELECT order_id, type, at, actor, data::text AS data FROM order_events WHERE order_id = ANY($1::uuid[]) ORDER BY id",
            PostgresUUIDArray(orders)
        ).rows
        var events: [UUID: [OrderEvent]] = [:]
        for row in rows {
            let dataJSON: String = try row.decode("data")
            guard let object = try? JSONSerialization.jsonObject(with: Data(dataJSON.utf8)) as? [String: Any] else {
                throw PostgresError.decoding(column: "data", swiftType: "[String: String]", postgresType: "jsonb")
            }
            let data = object.mapValues { "\($0)" }
            events[try row.decode("order_id"), default: []].append(
                OrderEvent(
                    type: try row.decode("type"), at: try row.decode("at"), actor: try row.enumeration("actor", as: EventActor.self),
                    data: data))
        }
        return events
    }
}
