import Domain
import Foundation
import Postgres

/// `ReturnStore` on PostgreSQL (Migrations/0024_returns.sql). Requests take the order's row lock
/// (as shipments and cancels do); each step is a conditional update and an event of the order.
public struct PostgresReturnStore: ReturnStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func request(
        id: UUID, orderID: UUID, customerID: UUID, lines: [RefundLine], reason: String, at: Date
    ) async throws -> ReturnRequest {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                guard
                    let order = try await connection.query(
                        "SELECT status, fulfilment_status FROM orders WHERE id = $1 AND customer_id = $2 FOR UPDATE", orderID, customerID
                    ).rows.first
                else { throw ReturnError.orderNotFound(orderID) }
                let progress = OrderProgress(
                    status: try order.enumeration("status", as: OrderStatus.self),
                    fulfilment: try order.enumeration("fulfilment_status", as: FulfilmentStatus.self))
                guard [.partiallyShipped, .shipped, .delivered].contains(progress) else { throw ReturnError.notReturnable(progress) }
                // Shipped units, less those in a return not refused.
                var left: [UUID: Int] = [:]
                for row in try await connection.query(
                    """
                    SELECT l.variant_id, l.shipped_quantity - COALESCE((
                        SELECT sum(rl.quantity) FROM return_lines rl JOIN returns r ON r.id = rl.return_id
                        WHERE r.order_id = l.order_id AND r.status <> 'refused' AND rl.variant_id = l.variant_id), 0)::int AS left
                    FROM order_lines l WHERE l.order_id = $1
                    """, orderID
                ).rows {
                    left[try row.decode("variant_id")] = try row.decode("left")
                }
                let asked: [UUID: Int]
                switch OrderUnits.asked(lines.map { ($0.variantID, $0.quantity) }, left: left) {
                case .success(let units): asked = units
                case .failure(.notOrdered(let index)): throw ReturnError.notOrdered(index: index)
                case .failure(.beyond(let index, let left)): throw ReturnError.beyondReturnable(index: index, left: left)
                }
                try await connection.query(
                    "INSERT INTO returns (id, order_id, status, reason, created_at, updated_at) VALUES ($1, $2, 'requested', $3, $4, $4)",
                    id, orderID, reason, at)
                for (variant, quantity) in asked {
                    try await connection.query(
                        "INSERT INTO return_lines (return_id, variant_id, quantity) VALUES ($1, $2, $3)", id, variant, quantity)
                }
                try await Self.event(orderID: orderID, type: "return_requested", returnID: id, actor: .customer, at: at, on: connection)
                return try await Self.load(id, on: connection)!
            }
        }
    }

    public func move(id: UUID, from: ReturnStatus, to: ReturnStatus, restock: Bool?, at: Date) async throws -> ReturnRequest {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                let moved = try await connection.query(
                    """
                    UPDATE returns SET status = $3, restock = COALESCE($4, restock), updated_at = $5
                    WHERE id = $1 AND status = $2 RETURNING order_id
                    """, id, from.rawValue, to.rawValue, restock, at
                ).rows
                guard let orderID: UUID = try moved.first?.decode("order_id") else {
                    guard let current = try await Self.load(id, on: connection) else { throw ReturnError.returnNotFound(id) }
                    throw ReturnError.wrongState(current.status)
                }
                try await Self.event(orderID: orderID, type: "return_\(to.rawValue)", returnID: id, actor: .staff, at: at, on: connection)
                return try await Self.load(id, on: connection)!
            }
        }
    }

    /// The return is moved first (its row locked, as a receipt with a refund moves it), then the
    /// order's row is locked, as refunds lock it, so that the refunds counted are all placed.
    public func receiveWithoutRefund(id: UUID, at: Date) async throws -> ReturnRequest {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                let moved = try await connection.query(
                    """
                    UPDATE returns SET status = 'received', restock = false, updated_at = $2
                    WHERE id = $1 AND status = 'approved' RETURNING order_id
                    """, id, at
                ).rows
                guard let orderID: UUID = try moved.first?.decode("order_id") else {
                    guard let current = try await Self.load(id, on: connection) else { throw ReturnError.returnNotFound(id) }
                    throw ReturnError.wrongState(current.status)
                }
                try await connection.query("SELECT id FROM orders WHERE id = $1 FOR UPDATE", orderID)
                // A receipt with its refund came first (its refund is reserved, keyed by the
                // return): that receipt is receiving it, not this one.
                let refunding = try await connection.query(
                    "SELECT 1 FROM refunds WHERE order_id = $1 AND idempotency_key = $2 AND status NOT IN ('failed', 'canceled')", orderID,
                    ReturnRefundKey.of(id))
                guard refunding.rows.isEmpty else { throw ReturnError.wrongState(.received) }
                let received = try await Self.load(id, on: connection)!
                try await Self.requireRefunded(received, on: connection)
                try await Self.event(orderID: orderID, type: "return_received", returnID: id, actor: .staff, at: at, on: connection)
                return received
            }
        }
    }

    /// Checks that refunds took each line's units and that no other return claims them: a line's
    /// refunded units (all of them once the order is refunded in full, by amount as well as by
    /// lines) less those of the order's other returns that are received or have a refund of
    /// their own not failed.
    /// - Throws: `ReturnError.notRefunded` naming every line past them.
    private static func requireRefunded(_ request: ReturnRequest, on connection: PostgresConnection) async throws {
        var short: [FieldError] = []
        for (index, line) in request.lines.enumerated() {
            let unclaimed: Int =
                try await connection.query(
                    """
                    SELECT CASE WHEN o.status = 'refunded' THEN l.quantity ELSE l.refunded_quantity END - COALESCE((
                        SELECT sum(rl.quantity) FROM return_lines rl JOIN returns r ON r.id = rl.return_id
                        WHERE r.order_id = l.order_id AND rl.variant_id = l.variant_id AND r.id <> $3
                          AND (r.status = 'received' OR EXISTS (
                              SELECT 1 FROM refunds f WHERE f.order_id = r.order_id AND f.idempotency_key = $4 || r.id::text
                                AND f.status NOT IN ('failed', 'canceled')))), 0)::int AS unclaimed
                    FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.order_id = $1 AND l.variant_id = $2
                    """, request.orderID, line.variantID, request.id, ReturnRefundKey.prefix
                ).rows.first?.decode("unclaimed") ?? 0
            guard unclaimed < line.quantity else { continue }
            short.append(
                FieldError(
                    "lines[\(index)].quantity", "must be at most \(max(unclaimed, 0)), the units refunds took that no other return holds"))
        }
        guard short.isEmpty else { throw ReturnError.notRefunded(short) }
    }

    public func returns(orderID: UUID, customerID: UUID) async throws -> [ReturnRequest]? {
        try await translatingUnavailable {
            guard
                !(try await database.query("SELECT 1 FROM orders WHERE id = $1 AND customer_id = $2", orderID, customerID).rows.isEmpty)
            else { return nil }
            return try await database.query(
                "SELECT \(Self.columns) FROM returns r WHERE r.order_id = $1 ORDER BY r.created_at, r.id", orderID
            ).rows.map(Self.request(from:))
        }
    }

    public func staffPage(status: ReturnStatus?, after cursor: PageCursor?, limit: Int) async throws -> [ReturnRequest] {
        try await translatingUnavailable {
            try await database.query(
                """
                SELECT \(Self.columns) FROM returns r
                WHERE ($1::text IS NULL OR status = $1) AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
                ORDER BY created_at DESC, id DESC LIMIT $4
                """, status?.rawValue, cursor?.createdAt, cursor?.id, limit
            ).rows.map(Self.request(from:))
        }
    }

    public func returnRequest(id: UUID) async throws -> ReturnRequest? {
        try await translatingUnavailable { try await Self.load(id, on: database) }
    }

    public func attachRefund(returnID: UUID, refundID: UUID) async throws -> ReturnRequest {
        try await translatingUnavailable {
            try await database.query("UPDATE returns SET refund_id = $2 WHERE id = $1", returnID, refundID)
            guard let found = try await Self.load(returnID, on: database) else { throw ReturnError.returnNotFound(returnID) }
            return found
        }
    }

    private static func event(
        orderID: UUID, type: String, returnID: UUID, actor: EventActor, at: Date, on connection: PostgresConnection
    ) async throws {
        try await connection.query(
            "INSERT INTO order_events (order_id, type, at, actor, data) VALUES ($1, $2, $3, $4, jsonb_build_object('return_id', $5::text))",
            orderID, type, at, actor.rawValue, returnID.lowercasedText)
    }

    /// A return's columns with its lines, read from `returns r` in one statement.
    private static let columns = """
        r.id, r.order_id, r.status, r.reason, r.restock, r.refund_id, r.created_at,
        (SELECT COALESCE(json_agg(json_build_array(l.variant_id, l.quantity) ORDER BY l.variant_id), '[]') FROM return_lines l
         WHERE l.return_id = r.id) AS lines
        """

    private static func load(_ id: UUID, on executor: any PostgresExecutor) async throws -> ReturnRequest? {
        try await executor.query("SELECT \(columns) FROM returns r WHERE r.id = $1", id).rows.first.map(request(from:))
    }

    /// Decodes a row selected with `columns`.
    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.
    private static func request(from row: PostgresRow) throws -> ReturnRequest {
        let lines = try PositionalJSON.rows(of: try row.decode("lines"), column: "lines").map { line in
            guard line.values.count == 2 else { throw line.invalid }
            return RefundLine(variantID: try line.uuid(0), quantity: try line.int(1))
        }
        return ReturnRequest(
            id: try row.decode("id"), orderID: try row.decode("order_id"), status: try row.enumeration("status", as: ReturnStatus.self),
            reason: try row.decode("reason"), lines: lines, restock: try row.decode("restock"), refundID: try row.decode("refund_id"),
            createdAt: try row.decode("created_at"))
    }
}
