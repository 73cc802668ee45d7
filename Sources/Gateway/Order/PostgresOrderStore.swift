import Domain
import Foundation
import Postgres

/// `OrderStore` on PostgreSQL: tables `orders` and `order_lines` (Migrations/0004_orders.sql).
/// Stock is reserved with one conditional `UPDATE ... WHERE stock >= $q` per line on the
/// variant's row, in variant-id order so that concurrent checkouts never deadlock, and never
/// driven below zero (`PostgresOrderStore+Placing.swift`); every change of stock is recorded in
/// `stock_movements`. An order reads its staff refunds from `refunds` (see `PostgresRefundStore`).
public struct PostgresOrderStore: OrderStore {
    let database: PostgresPool
    /// The shop's currency: an order is priced in it, and a line priced otherwise is refused.
    let currency: Currency

    /// Whether prices include tax and how it is rounded: each order's tax is computed by it once.
    let taxPolicy: TaxPolicy
    /// Where every change of stock made here forgets the variants' items.
    private let itemCache: ItemCache

    public init(database: PostgresPool, currency: Currency, taxPolicy: TaxPolicy = TaxPolicy(), itemCache: ItemCache = .off) {
        self.taxPolicy = taxPolicy
        self.database = database
        self.currency = currency
        self.itemCache = itemCache
    }

    public func placeOrder(id: UUID, request: CheckoutRequest, at: Date) async throws -> (order: Order, created: Bool) {
        let placed = try await translatingUnavailable { try await placing(id: id, request: request, at: at) }
        if let placed { itemCache.forget(owning: placed.variants) }
        guard let placed else {
            // The key was used before: answer with that order, if it was the same request.
            let rows = try await translatingUnavailable {
                try await database.query(
                    "SELECT id, request_fingerprint FROM orders WHERE customer_id = $1 AND idempotency_key = $2",
                    request.customerID, request.idempotencyKey
                ).rows
            }
            guard let row = rows.first else { throw StoreUnavailable("idempotency record vanished") }
            guard try row.decode("request_fingerprint", as: String.self) == request.fingerprint else {
                throw OrderError.idempotencyKeyReused
            }
            let existing: UUID = try row.decode("id")
            return (try await load(existing, customerID: request.customerID)!, false)
        }
        return (try await load(placed.id, customerID: request.customerID)!, true)
    }

    public func attachPayment(orderID: UUID, paymentIntentID: String, at: Date) async throws -> Bool {
        try await translatingUnavailable {
            !(try await database.query(
                "UPDATE orders SET payment_intent_id = $2, updated_at = $3 WHERE id = $1 AND status = 'pending_payment' RETURNING id",
                orderID, paymentIntentID, at
            ).rows.isEmpty)
        }
    }

    public func transition(
        orderID: UUID, from: OrderStatus, to: OrderStatus, restock: Bool, refund: RefundRecord?, by actor: EventActor, at: Date
    ) async throws -> Bool {
        let restocked: [UUID]? = try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await OrderUnits.name(actor, on: connection)
                // A full refund (the cancel's) claims whatever earlier refunds left of the total,
                // and only when none of them is unsettled: then, and only then, what they reserve
                // equals what succeeded. The check reads the locked row, so a refund reserved
                // meanwhile fails it. Given up, the full refund leaves the others their share.
                // A new claim forgets the refund of an earlier one (a cancel whose refund failed):
                // it has a key of its own, and the earlier refund's answer is not its answer, now
                // or when a stale caller brings it later (Migrations/0047).
                let moved = try await connection.query(
                    """
                    UPDATE orders SET status = $3, updated_at = $4,
                                      superseded_refund_ids = CASE WHEN $2 = 'paid' AND $3 = 'refund_pending' AND refund_id IS NOT NULL
                                          THEN superseded_refund_ids || refund_id ELSE superseded_refund_ids END,
                                      refund_id = CASE WHEN $5::text IS NOT NULL THEN $5
                                          WHEN $2 = 'paid' AND $3 = 'refund_pending' THEN NULL ELSE refund_id END,
                                      refund_status = CASE WHEN $6::text IS NOT NULL THEN $6
                                          WHEN $2 = 'paid' AND $3 = 'refund_pending' THEN NULL ELSE refund_status END,
                                      refunded_amount = CASE
                                          WHEN $3 IN ('refund_pending', 'refunded') THEN total_amount
                                          WHEN $2 = 'refund_pending' THEN (SELECT COALESCE(sum(amount), 0) FROM refunds
                                               WHERE order_id = $1 AND status NOT IN ('failed', 'canceled'))
                                          ELSE refunded_amount END
                    WHERE id = $1 AND status = $2 AND ($5::text IS NULL OR $5 <> ALL(superseded_refund_ids))
                      -- The customer's cancel claims a paid order only before its first shipment.
                      AND ($2 <> 'paid' OR $3 <> 'refund_pending' OR fulfilment_status = 'unfulfilled')
                      AND ($2 <> 'paid' OR $3 <> 'refund_pending' OR refunded_amount = (SELECT COALESCE(sum(amount), 0)
                           FROM refunds WHERE order_id = $1 AND status = 'succeeded'))
                    RETURNING id
                    """, orderID, from.rawValue, to.rawValue, at, refund?.id, refund?.status.rawValue
                ).rows
                guard !moved.isEmpty else { return nil }
                var restocked: [UUID] = []
                if restock {
                    try await OrderUnits.lockVariants(of: orderID, on: connection)
                    // What staff refunds already returned to stock is not returned again.
                    restocked = try await connection.query(
                        """
                        WITH returned AS (
                            UPDATE item_variants v SET stock = v.stock + l.quantity - l.returned_quantity FROM order_lines l
                            WHERE l.order_id = $1 AND v.id = l.variant_id AND l.quantity > l.returned_quantity
                            RETURNING v.id, l.quantity - l.returned_quantity AS quantity, v.stock
                        )
                        INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
                        SELECT id, quantity, stock, $3, $1, $2 FROM returned RETURNING variant_id
                        """, orderID, at, "order \(to.rawValue)"
                    ).rows.map { try $0.decode("variant_id") }
                    try await connection.query(
                        "UPDATE order_lines SET returned_quantity = quantity, withdrawn_quantity = quantity - shipped_quantity WHERE order_id = $1",
                        orderID)
                }
                return restocked
            }
        }
        guard let restocked else { return false }
        itemCache.forget(owning: restocked)
        return true
    }

    public func markPaid(orderID: UUID, at: Date) async throws -> Order {
        // One statement, so no transaction of several round trips: what was bought leaves the cart
        // with the payment's record. Only that: a line the customer raised while the payment
        // waited on them (3-D Secure, the payment sheet) keeps the units beyond it.
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                WITH paid AS (
                    UPDATE orders SET status = 'paid', updated_at = $2
                    WHERE id = $1 AND status IN ('pending_payment', 'requires_action') RETURNING customer_id
                ), bought AS (
                    SELECT variant_id, quantity FROM order_lines WHERE order_id = $1
                ), cleared AS (
                    DELETE FROM cart_lines c USING bought b
                    WHERE c.customer_id IN (SELECT customer_id FROM paid) AND c.variant_id = b.variant_id AND c.quantity <= b.quantity
                ), kept AS (
                    UPDATE cart_lines c SET quantity = c.quantity - b.quantity FROM bought b
                    WHERE c.customer_id IN (SELECT customer_id FROM paid) AND c.variant_id = b.variant_id AND c.quantity > b.quantity
                )
                SELECT customer_id FROM orders WHERE id = $1
                """, orderID, at
            ).rows
        }
        guard let customerID: UUID = try rows.first?.decode("customer_id") else { throw OrderError.orderNotFound(orderID) }
        return try await load(orderID, customerID: customerID)!
    }

    public func markPaymentFailed(orderID: UUID, declineCode: String, at: Date) async throws -> Order {
        let (customerID, restocked): (UUID, [UUID]) = try await translatingUnavailable {
            try await database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    UPDATE orders SET status = 'payment_failed', decline_code = $2, updated_at = $3
                    WHERE id = $1 AND status IN ('pending_payment', 'requires_action') RETURNING customer_id
                    """, orderID, declineCode, at
                ).rows
                if !rows.isEmpty {
                    try await OrderUnits.lockVariants(of: orderID, on: connection)
                    let restocked: [UUID] = try await connection.query(
                        """
                        WITH returned AS (
                            UPDATE item_variants v SET stock = v.stock + l.quantity FROM order_lines l
                            WHERE l.order_id = $1 AND v.id = l.variant_id RETURNING v.id, l.quantity, v.stock
                        )
                        INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
                        SELECT id, quantity, stock, 'payment failed', $1, $2 FROM returned RETURNING variant_id
                        """, orderID, at
                    ).rows.map { try $0.decode("variant_id") }
                    return (try rows[0].decode("customer_id"), restocked)
                }
                let customerID: UUID = try await connection.query("SELECT customer_id FROM orders WHERE id = $1", orderID).rows[0]
                    .decode("customer_id")
                return (customerID, [])
            }
        }
        itemCache.forget(owning: restocked)
        return try await load(orderID, customerID: customerID)!
    }

    public func order(id: UUID, customerID: UUID) async throws -> Order? {
        try await load(id, customerID: customerID)
    }

    public func orders(customerID: UUID, progress: OrderProgress?, after cursor: PageCursor?, limit: Int) async throws -> [Order] {
        let (status, fulfilment) = Self.columns(of: progress)
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                SELECT \(Self.columns) FROM orders
                WHERE customer_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR fulfilment_status = $3)
                  AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
                ORDER BY created_at DESC, id DESC LIMIT $6
                """, customerID, status, fulfilment, cursor?.createdAt, cursor?.id, limit
            ).rows
        }
        return try orders(from: rows)
    }

    /// The `status` and `fulfilment_status` an order at `progress` has: the payment's status,
    /// and once paid, the fulfilment's (`paid` alone is a paid order not shipped yet).
    static func columns(of progress: OrderProgress?) -> (status: String?, fulfilment: String?) {
        let paid = OrderStatus.paid.rawValue
        switch progress {
        case nil: return (nil, nil)
        case .paid: return (paid, FulfilmentStatus.unfulfilled.rawValue)
        case .partiallyShipped: return (paid, FulfilmentStatus.partiallyShipped.rawValue)
        case .shipped: return (paid, FulfilmentStatus.shipped.rawValue)
        case .delivered: return (paid, FulfilmentStatus.delivered.rawValue)
        case .pendingPayment: return (OrderStatus.pendingPayment.rawValue, nil)
        case .requiresAction: return (OrderStatus.requiresAction.rawValue, nil)
        case .paymentFailed: return (OrderStatus.paymentFailed.rawValue, nil)
        case .cancelled: return (OrderStatus.cancelled.rawValue, nil)
        case .refundPending: return (OrderStatus.refundPending.rawValue, nil)
        case .refunded: return (OrderStatus.refunded.rawValue, nil)
        }
    }

    public func claimPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order] {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                WITH due (claimed_id) AS MATERIALIZED (
                    SELECT id FROM orders WHERE status = 'pending_payment' AND created_at < $1 AND updated_at < $1
                    ORDER BY updated_at LIMIT $3 FOR NO KEY UPDATE SKIP LOCKED)
                UPDATE orders SET updated_at = $2 FROM due WHERE orders.id = due.claimed_id
                RETURNING \(Self.columns)
                """, cutoff, at, limit
            ).rows
        }
        return try orders(from: rows)
    }

    public func claimRefundPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order] {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                WITH due (claimed_id) AS MATERIALIZED (
                    SELECT id FROM orders WHERE status = 'refund_pending' AND updated_at < $1
                    ORDER BY updated_at LIMIT $3 FOR NO KEY UPDATE SKIP LOCKED)
                UPDATE orders SET updated_at = $2 FROM due WHERE orders.id = due.claimed_id
                RETURNING \(Self.columns)
                """, cutoff, at, limit
            ).rows
        }
        return try orders(from: rows)
    }

    static let columns = """
        id, customer_id, status, total_amount, total_currency, payment_intent_id, decline_code, refund_id, refund_status, \
        refunded_amount, action_client_secret, action_type, action_redirect_url, action_expires_at, payment_method, created_at, \
        subtotal_amount, shipping_fee_amount, prices_include_tax, tax_lines, shipping, fulfilment_status, \
        \(OrderAggregates.columns)
        """

    func load(_ id: UUID, customerID: UUID) async throws -> Order? {
        let rows = try await translatingUnavailable {
            try await database.query("SELECT \(Self.columns) FROM orders WHERE id = $1 AND customer_id = $2", id, customerID).rows
        }
        return try orders(from: rows).first
    }

    /// The orders of `rows`, selected with `columns` (their lines, refunds, shipments and events
    /// aggregated beside them).
    func orders(from rows: [PostgresRow]) throws -> [Order] {
        try rows.map(Self.order(from:))
    }

    private static func order(from row: PostgresRow) throws -> Order {
        let id: UUID = try row.decode("id")
        let status = try row.enumeration("status", as: OrderStatus.self)
        var refund: RefundRecord?
        if let refundID: String = try row.decode("refund_id") {
            refund = RefundRecord(id: refundID, status: try row.enumeration("refund_status", as: RefundStatus.self))
        }
        var action: PaymentAction?
        if let secret: String = try row.decode("action_client_secret") {
            action = PaymentAction(
                clientSecret: secret, nextActionType: try row.decode("action_type"), redirectURL: try row.decode("action_redirect_url"))
        }
        let total = try row.money(amount: "total_amount", currency: "total_currency")
        let totals = OrderTotals(
            subtotal: Money(amount: try row.decode("subtotal_amount"), currency: total.currency),
            shippingFee: Money(amount: try row.decode("shipping_fee_amount"), currency: total.currency),
            taxLines: try StoredTaxLines.lines(try row.decode("tax_lines"), currency: total.currency), total: total)
        return Order(
            id: id, customerID: try row.decode("customer_id"), status: status,
            lines: try OrderAggregates.lines(try row.decode("lines_json")), total: total, totals: totals,
            pricesIncludeTax: try row.decode("prices_include_tax"),
            shipping: try (row.decode("shipping") as String?).map(StoredShipping.shipping),
            fulfilmentStatus: try row.enumeration("fulfilment_status", as: FulfilmentStatus.self),
            shipments: try OrderAggregates.shipments(try row.decode("shipments_json"), orderID: id),
            events: try OrderAggregates.events(try row.decode("events_json")),
            paymentIntentID: try row.decode("payment_intent_id"), declineCode: try row.decode("decline_code"), refund: refund,
            refundedAmount: try row.decode("refunded_amount"), refunds: try OrderAggregates.refunds(try row.decode("refunds_json")),
            action: status == .requiresAction ? action : nil, actionExpiresAt: try row.decode("action_expires_at"),
            confirmedByApp: (try row.decode("payment_method") as String?) == nil, createdAt: try row.decode("created_at"))
    }
}
