import Domain
import Foundation
import Postgres

/// An order's lines, refunds, shipments and events, aggregated into JSON by subselects beside the
/// order's own columns. Reading an order, or a page of them, is one statement and so one
/// snapshot: it was five statements, one table each, and a checkout reads its order twice.
///
/// Each element is a positional JSON array (`json_build_array`), read back by `JSONValue`.
/// Timestamps arrive as PostgreSQL writes them in JSON (`2026-11-26T12:42:58.123456+00:00`).
enum OrderAggregates {
    /// Select-list entries for a statement that reads `orders` under that name (no alias): the
    /// subselects name `orders.id`.
    static let columns = """
        \(lines) AS lines_json, \(refunds) AS refunds_json, \(shipments) AS shipments_json, \(events) AS events_json
        """

    static let lines = """
        (SELECT COALESCE(json_agg(json_build_array(l.variant_id, l.item_id, l.sku, l.options, l.name, l.unit_price_amount, \
        l.unit_price_currency, l.quantity, l.tax_class) ORDER BY l.variant_id), '[]')::text \
        FROM order_lines l WHERE l.order_id = orders.id)
        """

    static let refunds = """
        (SELECT COALESCE(json_agg(json_build_array(r.id, r.amount, r.currency, r.status, r.created_at) \
        ORDER BY r.created_at, r.id), '[]')::text FROM refunds r WHERE r.order_id = orders.id)
        """

    /// Each shipment's lines nest inside it: `[id, carrier, tracking, created, delivered, [[variant, quantity]]]`.
    static let shipments = """
        (SELECT COALESCE(json_agg(json_build_array(s.id, s.carrier, s.tracking_number, s.created_at, s.delivered_at, \
        (SELECT COALESCE(json_agg(json_build_array(sl.variant_id, sl.quantity) ORDER BY sl.variant_id), '[]') \
        FROM shipment_lines sl WHERE sl.shipment_id = s.id)) ORDER BY s.created_at, s.id), '[]')::text \
        FROM shipments s WHERE s.order_id = orders.id)
        """

    static let events = """
        (SELECT COALESCE(json_agg(json_build_array(e.type, e.at, e.actor, e.data) ORDER BY e.id), '[]')::text \
        FROM order_events e WHERE e.order_id = orders.id)
        """

    /// - Throws: `PostgresError.decoding` for anything but what `lines` selects.
    static func lines(_ json: String) throws -> [OrderLine] {
        try PositionalJSON.rows(of: json, column: "lines_json").map { line in
            OrderLine(
                itemID: try line.uuid(1), variantID: try line.uuid(0), sku: try line.string(2), name: try line.string(4),
                options: try CatalogJSON.choiceInOrder(line.value(3)), taxClass: try line.enumeration(8),
                unitPrice: Money(amount: try line.int64(5), currency: try line.currency(6)), quantity: try line.int(7))
        }
    }

    /// - Throws: `PostgresError.decoding` for anything but what `refunds` selects.
    static func refunds(_ json: String) throws -> [RefundSummary] {
        try PositionalJSON.rows(of: json, column: "refunds_json").map { refund in
            RefundSummary(
                id: try refund.uuid(0), amount: Money(amount: try refund.int64(1), currency: try refund.currency(2)),
                status: try refund.enumeration(3), createdAt: try refund.date(4))
        }
    }

    /// - Throws: `PostgresError.decoding` for anything but what `shipments` selects.
    static func shipments(_ json: String, orderID: UUID) throws -> [Shipment] {
        try PositionalJSON.rows(of: json, column: "shipments_json").map { shipment in
            let lines = try shipment.elements(5).map { line in
                ShipmentLine(variantID: try line.uuid(0), quantity: try line.int(1))
            }
            return Shipment(
                id: try shipment.uuid(0), orderID: orderID, carrier: try shipment.string(1), trackingNumber: try shipment.string(2),
                lines: lines, createdAt: try shipment.date(3), deliveredAt: try shipment.optionalDate(4))
        }
    }

    /// - Throws: `PostgresError.decoding` for anything but what `events` selects.
    static func events(_ json: String) throws -> [OrderEvent] {
        try PositionalJSON.rows(of: json, column: "events_json").map { event in
            guard let object = event.value(3).object else { throw event.invalid }
            // Every writer stores text (Migrations/0022_fulfilment.sql and the stores); another
            // scalar, written by hand, reads as its JSON text. Only a nested value is refused.
            let data = try object.mapValues { value in
                switch value {
                case .string(let text), .number(let text): return text
                case .bool(let flag): return flag ? "true" : "false"
                case .null: return "null"
                case .array, .object: throw event.invalid
                }
            }
            return OrderEvent(type: try event.string(0), at: try event.date(1), actor: try event.enumeration(2), data: data)
        }
    }

}
