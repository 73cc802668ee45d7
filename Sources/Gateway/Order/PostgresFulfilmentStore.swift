import Domain
import Foundation
import Postgres

/// `FulfilmentStore` on PostgreSQL (Migrations/0022_fulfilment.sql). A shipment is written under
/// the order's row lock, the same lock a customer's cancel takes, so a cancel and a shipment of
/// one order never both succeed; the events they cause are the trigger's, with the staff as actor.
public struct PostgresFulfilmentStore: FulfilmentStore {
    let orders: PostgresOrderStore
    var database: PostgresPool { orders.database }

    public init(orders: PostgresOrderStore) {
        self.orders = orders
    }

    public func ship(
        orderID: UUID, shipmentID: UUID, carrier: String, trackingNumber: String, lines: [ShipmentLine]?, at: Date
    ) async throws -> Shipment {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await OrderUnits.name(.staff, on: connection)
                guard
                    let order = try await connection.query(
                        "SELECT status, fulfilment_status FROM orders WHERE id = $1 FOR UPDATE", orderID
                    ).rows.first
                else { throw FulfilmentError.orderNotFound(orderID) }
                let progress = OrderProgress(
                    status: try order.enumeration("status", as: OrderStatus.self),
                    fulfilment: try order.enumeration("fulfilment_status", as: FulfilmentStatus.self))
                guard progress == .paid || progress == .partiallyShipped else { throw FulfilmentError.notShippable(progress) }
                // What is left of each line: neither shipped nor taken off by a staff refund's
                // restock (a returned unit was shipped: it is not counted twice).
                var left: [UUID: Int] = [:]
                for line in try await connection.query(
                    "SELECT variant_id, quantity - shipped_quantity - withdrawn_quantity AS left FROM order_lines WHERE order_id = $1",
                    orderID
                ).rows {
                    left[try line.decode("variant_id")] = max(0, try line.decode("left") as Int)
                }
                let shipped = try Self.units(lines, left: left)
                guard !shipped.isEmpty else { throw FulfilmentError.notShippable(progress) }
                try await connection.query(
                    "INSERT INTO shipments (id, order_id, carrier, tracking_number, created_at) VALUES ($1, $2, $3, $4, $5)",
                    shipmentID, orderID, carrier, trackingNumber, at)
                for line in shipped {
                    try await connection.query(
                        "INSERT INTO shipment_lines (shipment_id, variant_id, quantity) VALUES ($1, $2, $3)", shipmentID, line.variantID,
                        line.quantity)
                    try await connection.query(
                        "UPDATE order_lines SET shipped_quantity = shipped_quantity + $3 WHERE order_id = $1 AND variant_id = $2", orderID,
                        line.variantID, line.quantity)
                }
                let remaining = left.map { variant, units in units - (shipped.first { $0.variantID == variant }?.quantity ?? 0) }
                let whole = remaining.allSatisfy { $0 == 0 }
                // The shipment's event, then the fulfilment change it makes (the trigger's).
                try await connection.query(
                    """
                    INSERT INTO order_events (order_id, type, at, actor, data)
                    VALUES ($1, 'shipment_created', $2, 'staff',
                            jsonb_build_object('shipment_id', $3::text, 'carrier', $4::text, 'tracking_number', $5::text))
                    """, orderID, at, shipmentID.lowercasedText, carrier, trackingNumber)
                try await connection.query(
                    "UPDATE orders SET fulfilment_status = $2, updated_at = $3 WHERE id = $1", orderID,
                    (whole ? FulfilmentStatus.shipped : .partiallyShipped).rawValue, at)
                return Shipment(
                    id: shipmentID, orderID: orderID, carrier: carrier, trackingNumber: trackingNumber, lines: shipped, createdAt: at,
                    deliveredAt: nil)
            }
        }
    }

    /// The units a shipment takes: `lines` checked against what is `left` of each, or everything
    /// left when `lines` is nil; in the order of variant ids.
    /// - Throws: `FulfilmentError.notOrdered` or `.beyondOrdered` naming the first line refused.
    static func units(_ lines: [ShipmentLine]?, left: [UUID: Int]) throws -> [ShipmentLine] {
        guard let lines else {
            return left.filter { $0.value > 0 }.map { ShipmentLine(variantID: $0.key, quantity: $0.value) }
                .sorted { $0.variantID.uuidString < $1.variantID.uuidString }
        }
        let asked: [UUID: Int]
        switch OrderUnits.asked(lines.map { ($0.variantID, $0.quantity) }, left: left) {
        case .success(let units): asked = units
        case .failure(.notOrdered(let index)): throw FulfilmentError.notOrdered(index: index)
        case .failure(.beyond(let index, let left)): throw FulfilmentError.beyondOrdered(index: index, left: left)
        }
        return asked.map { ShipmentLine(variantID: $0.key, quantity: $0.value) }.sorted {
            $0.variantID.uuidString < $1.variantID.uuidString
        }
    }

    public func deliver(shipmentID: UUID, at: Date) async throws -> Shipment {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await OrderUnits.name(.staff, on: connection)
                guard
                    let orderID: UUID = try await connection.query(
                        "SELECT order_id FROM shipments WHERE id = $1", shipmentID
                    ).rows.first?.decode("order_id")
                else { throw FulfilmentError.shipmentNotFound(shipmentID) }
                // The order's lock first, as shipping takes it: deliveries of one order take turns.
                try await connection.query("SELECT 1 FROM orders WHERE id = $1 FOR UPDATE", orderID)
                let marked = try await connection.query(
                    "UPDATE shipments SET delivered_at = $2 WHERE id = $1 AND delivered_at IS NULL RETURNING id", shipmentID, at)
                guard !marked.rows.isEmpty else { throw FulfilmentError.alreadyDelivered }
                try await connection.query(
                    """
                    INSERT INTO order_events (order_id, type, at, actor, data)
                    VALUES ($1, 'shipment_delivered', $2, 'staff', jsonb_build_object('shipment_id', $3::text))
                    """, orderID, at, shipmentID.lowercasedText)
                // Delivered once everything is shipped and every shipment is delivered.
                try await connection.query(
                    """
                    UPDATE orders SET fulfilment_status = 'delivered', updated_at = $2
                    WHERE id = $1 AND fulfilment_status = 'shipped'
                      AND NOT EXISTS (SELECT 1 FROM shipments WHERE order_id = $1 AND delivered_at IS NULL)
                    """, orderID, at)
                let row = try await connection.query(
                    "SELECT \(OrderAggregates.shipments) AS shipments_json FROM orders WHERE id = $1", orderID
                ).rows.first
                let shipments = try row.map { try OrderAggregates.shipments(try $0.decode("shipments_json"), orderID: orderID) }
                guard let shipment = shipments?.first(where: { $0.id == shipmentID }) else {
                    throw FulfilmentError.shipmentNotFound(shipmentID)
                }
                return shipment
            }
        }
    }

    public func staffPage(matching filter: StaffOrderFilter, after cursor: PageCursor?, limit: Int) async throws -> [StaffOrder] {
        let (status, fulfilment) = PostgresOrderStore.columns(of: filter.progress)
        let query = filter.query
        let ids = filter.idRange
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                SELECT \(PostgresOrderStore.columns) FROM orders
                WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR fulfilment_status = $2)
                  AND ($3::text IS NULL OR id BETWEEN $4::uuid AND $8::uuid
                       OR customer_id IN (SELECT id FROM customers WHERE lower(email) = lower($3))
                       OR id IN (SELECT order_id FROM order_lines WHERE sku = $3))
                  AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::uuid))
                ORDER BY created_at DESC, id DESC LIMIT $7
                """, status, fulfilment, query, ids?.first, cursor?.createdAt, cursor?.id, limit, ids?.last
            ).rows
        }
        return try await staffOrders(try orders.orders(from: rows))
    }

    public func staffOrder(id: UUID) async throws -> StaffOrder? {
        let rows = try await translatingUnavailable {
            try await database.query("SELECT \(PostgresOrderStore.columns) FROM orders WHERE id = $1", id).rows
        }
        return try await staffOrders(try orders.orders(from: rows)).first
    }

    /// The orders with their customers' emails (none for an account deleted since).
    private func staffOrders(_ orders: [Order]) async throws -> [StaffOrder] {
        guard !orders.isEmpty else { return [] }
        let emails: [UUID: String] = try await translatingUnavailable {
            var emails: [UUID: String] = [:]
            for row in try await database.query(
                "SELECT id, email FROM customers WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL",
                PostgresUUIDArray(orders.map(\.customerID))
            ).rows {
                emails[try row.decode("id")] = try row.decode("email")
            }
            return emails
        }
        return orders.map { StaffOrder(order: $0, customerEmail: emails[$0.customerID]) }
    }
}
