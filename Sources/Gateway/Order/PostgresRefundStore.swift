import Domain
import Foundation
import Postgres

/// `RefundStore` on PostgreSQL: tables `refunds` and `refund_lines` (Migrations/0010_refunds.sql).
/// A refund's amount is reserved with one conditional `UPDATE orders SET refunded_amount = ...
/// WHERE refunded_amount + amount <= total_amount`, its lines' units likewise on
/// `order_lines.refunded_quantity` and, when it restocks, on `returned_quantity` (and, for a staff
/// refund, unshipped units on `withdrawn_quantity`, Migrations/0040), in the transaction that
/// inserts it; CHECK constraints hold every bound even against a bug here.
public struct PostgresRefundStore: RefundStore {
    private let database: PostgresPool
    /// Where a refund's return to stock forgets the variants' items.
    private let itemCache: ItemCache
    /// How the shop rounds tax (`TAX_ROUNDING`): a refund by lines gives their tax back as the
    /// order charged it.
    private let taxRounding: TaxRounding

    public init(database: PostgresPool, itemCache: ItemCache = .off, taxRounding: TaxRounding = .floor) {
        self.database = database
        self.itemCache = itemCache
        self.taxRounding = taxRounding
    }

    public func reserveRefund(id: UUID, request: RefundRequest, at: Date) async throws -> (refund: Refund, created: Bool) {
        let reserved = try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await reserve(id: id, request: request, at: at, on: connection)
            }
        }
        if reserved { return (try await load(id)!, true) }
        // The key was used before: answer with that refund, if it was the same request.
        let rows = try await translatingUnavailable {
            try await database.query(
                "SELECT id, request_fingerprint FROM refunds WHERE order_id = $1 AND idempotency_key = $2", request.orderID,
                request.idempotencyKey
            ).rows
        }
        guard let row = rows.first else { throw StoreUnavailable("idempotency record vanished") }
        guard try row.decode("request_fingerprint", as: String.self) == request.fingerprint else {
            throw RefundError.idempotencyKeyReused
        }
        return (try await load(try row.decode("id"))!, false)
    }

    /// The transaction of `reserveRefund`; false when the idempotency key is taken.
    private func reserve(id: UUID, request: RefundRequest, at: Date, on connection: PostgresConnection) async throws -> Bool {
        guard
            let order = try await connection.query(
                // Locked first, as every path changing an order locks its row first: refunds of
                // one order count their units and their tax one after another.
                """
                SELECT status, total_amount, total_currency, refunded_amount, prices_include_tax FROM orders WHERE id = $1
                FOR NO KEY UPDATE
                """, request.orderID
            ).rows.first
        else { throw RefundError.orderNotFound(request.orderID) }
        let taken = try await connection.query(
            "SELECT 1 FROM refunds WHERE order_id = $1 AND idempotency_key = $2", request.orderID, request.idempotencyKey)
        guard taken.rows.isEmpty else { return false }
        let status = try order.enumeration("status", as: OrderStatus.self)
        guard status == .paid else { throw RefundError.notRefundable(status) }
        let total = try order.money(amount: "total_amount", currency: "total_currency")
        if let asked = request.amount, asked.currency != total.currency { throw RefundError.foreignCurrency(total.currency) }
        let remaining = total.amount - (try order.decode("refunded_amount", as: Int64.self))

        var ordered: [UUID: (price: Int64, quantity: Int, taxClass: TaxClass)] = [:]
        var earlier: [RefundedUnits] = []
        var refundedBefore: [UUID: Int] = [:]
        /// Units of each line that no shipment sent and no refund withdrew.
        var toShip: [UUID: Int] = [:]
        var shippedAny = false
        for line in try await connection.query(
            """
            SELECT variant_id, unit_price_amount, quantity, refunded_quantity, tax_class, shipped_quantity, withdrawn_quantity
            FROM order_lines WHERE order_id = $1
            """, request.orderID
        ).rows {
            let bought = (
                price: try line.decode("unit_price_amount", as: Int64.self), quantity: try line.decode("quantity", as: Int.self),
                taxClass: try line.enumeration("tax_class", as: TaxClass.self)
            )
            ordered[try line.decode("variant_id")] = bought
            refundedBefore[try line.decode("variant_id")] = try line.decode("refunded_quantity")
            let shipped: Int = try line.decode("shipped_quantity")
            shippedAny = shippedAny || shipped > 0
            toShip[try line.decode("variant_id")] = bought.quantity - shipped - (try line.decode("withdrawn_quantity") as Int)
            earlier.append(
                RefundedUnits(
                    unitPrice: Money(amount: bought.price, currency: total.currency), quantity: try line.decode("refunded_quantity"),
                    taxClass: bought.taxClass))
        }
        var invalid: [FieldError] = []
        var refunded: [RefundedUnits] = []
        for (index, line) in request.lines.enumerated() {
            guard let bought = ordered[line.variantID] else {
                invalid.append(FieldError("lines[\(index)].variant_id", DistinctLines.notOrdered))
                continue
            }
            if line.quantity > bought.quantity {
                invalid.append(FieldError("lines[\(index)].quantity", "must be at most \(bought.quantity), the quantity ordered"))
            }
            refunded.append(
                RefundedUnits(
                    unitPrice: Money(amount: bought.price, currency: total.currency), quantity: line.quantity, taxClass: bought.taxClass))
        }
        guard invalid.isEmpty else { throw RefundError.invalid(invalid) }
        let linesValue = try RefundedUnits.value(
            of: refunded, after: earlier, in: total.currency,
            tax: TaxPolicy(pricesIncludeTax: try order.decode("prices_include_tax"), rounding: taxRounding))
        // The last of the lines' units: their tax was counted on top of refunds some of which may
        // have failed since, so it may be past what is left by a yen a rate; what is left is it.
        let asked = Dictionary(request.lines.map { ($0.variantID, $0.quantity) }, uniquingKeysWith: +)
        let lastUnits = ordered.allSatisfy { variant, bought in
            asked[variant, default: 0] + refundedBefore[variant, default: 0] == bought.quantity
        }
        let drift = Int64(TaxClass.allCases.count)
        let linesAmount =
            lastUnits && linesValue.amount > remaining && linesValue.amount - remaining <= drift ? remaining : linesValue.amount
        // Restocking exactly the units left of an order that never shipped ends it: nothing is
        // left to ship, so its shipping fee goes back too, and the order becomes `refunded`.
        // Kept, the fee left it `paid` forever, a shipment's 409, with nothing to ship. (More
        // units than are left, or than earlier refunds left to refund, is the lines' error,
        // below.) Not while another refund is unsettled: the units it withdrew come back to ship
        // if it fails, and the fee would be gone.
        let unsettled = try await connection.query(
            "SELECT 1 FROM refunds WHERE order_id = $1 AND status IN ('pending', 'requires_action') LIMIT 1", request.orderID)
        let endsOrder =
            request.restock && request.returnID == nil && !shippedAny && unsettled.rows.isEmpty
            && toShip.allSatisfy { variant, left in asked[variant, default: 0] == left }
            && asked.allSatisfy { variant, units in units + refundedBefore[variant, default: 0] <= ordered[variant]?.quantity ?? 0 }
        if endsOrder, let asked = request.amount, asked.amount < remaining {
            throw RefundError.invalid([
                FieldError(
                    "amount",
                    "must be \(remaining), all that is left, or absent: these lines leave nothing to ship on an order that shipped nothing")
            ])
        }
        let amount = request.amount?.amount ?? (request.lines.isEmpty || endsOrder ? remaining : linesAmount)
        guard amount >= 1 else { throw RefundError.exceedsCaptured(remaining: Money(amount: max(remaining, 0), currency: total.currency)) }

        // Claim the key first: a concurrent request with the same key waits here for this
        // transaction and then finds the key taken.
        let claimed = try await connection.query(
            """
            INSERT INTO refunds (id, order_id, amount, currency, reason, restock, idempotency_key, request_fingerprint, status,
                                 created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9)
            ON CONFLICT (order_id, idempotency_key) DO NOTHING RETURNING id
            """, id, request.orderID, amount, total.currency.code, request.reason.rawValue, request.restock,
            request.idempotencyKey, request.fingerprint, at)
        guard !claimed.rows.isEmpty else { return false }
        let bounded = try await connection.query(
            """
            UPDATE orders SET refunded_amount = refunded_amount + $2, updated_at = $3
            WHERE id = $1 AND status = 'paid' AND refunded_amount + $2 <= total_amount
            RETURNING id
            """, request.orderID, amount, at)
        if bounded.rows.isEmpty {
            // Throwing rolls the refund back. Read what won instead: a refund or a cancel.
            let now = try await connection.query(
                "SELECT status, total_amount - refunded_amount AS remaining FROM orders WHERE id = $1", request.orderID
            ).rows[0]
            let current = try now.enumeration("status", as: OrderStatus.self)
            guard current == .paid else { throw RefundError.notRefundable(current) }
            throw RefundError.exceedsCaptured(remaining: Money(amount: try now.decode("remaining"), currency: total.currency))
        }
        if let returnID = request.returnID {
            // Under the order's lock, which a receipt without a refund takes too: a return
            // received that way first is not refunded as well.
            let row = try await connection.query("SELECT status FROM returns WHERE id = $1", returnID).rows.first
            let status = try row?.enumeration("status", as: ReturnStatus.self)
            guard status == .approved else { throw ReturnError.wrongState(status ?? .received) }
        }
        // The orders row is locked by now, so concurrent refunds of the order take these in turn.
        for (index, line) in request.lines.enumerated() {
            // The line's units are taken for the refund, and for the restock when it restocks, in
            // one statement: both bounds hold or neither is taken. A staff refund's restock takes
            // units off what is left to ship first (`withdrawn`); a return's came back shipped.
            let claimed = try await connection.query(
                """
                UPDATE order_lines
                SET refunded_quantity = refunded_quantity + $3,
                    returned_quantity = returned_quantity + CASE WHEN $4 THEN $3 ELSE 0 END,
                    withdrawn_quantity = withdrawn_quantity + taken.withdrawn
                FROM (
                    SELECT CASE WHEN $4 AND NOT $5 THEN LEAST($3, quantity - shipped_quantity - withdrawn_quantity) ELSE 0 END
                        AS withdrawn
                    FROM order_lines WHERE order_id = $1 AND variant_id = $2
                ) taken
                WHERE order_id = $1 AND variant_id = $2 AND refunded_quantity + $3 <= quantity
                  AND (NOT $4 OR returned_quantity + $3 <= quantity)
                RETURNING taken.withdrawn
                """, request.orderID, line.variantID, line.quantity, request.restock, request.returnID != nil)
            if let taken = claimed.rows.first {
                try await connection.query(
                    "INSERT INTO refund_lines (refund_id, order_id, variant_id, quantity, withdrawn) VALUES ($1, $2, $3, $4, $5)", id,
                    request.orderID, line.variantID, line.quantity, try taken.decode("withdrawn", as: Int.self))
                continue
            }
            let left = try await connection.query(
                """
                SELECT quantity - refunded_quantity AS to_refund, quantity - returned_quantity AS to_restock
                FROM order_lines WHERE order_id = $1 AND variant_id = $2
                """, request.orderID, line.variantID
            ).rows[0]
            let toRefund: Int = try left.decode("to_refund")
            let message =
                toRefund < line.quantity
                ? "must be at most \(toRefund), what earlier refunds left to refund"
                : "must be at most \(try left.decode("to_restock") as Int), what earlier refunds left to restock"
            throw RefundError.invalid([FieldError("lines[\(index)].quantity", message)])
        }
        return true
    }

    public func recordRefund(id: UUID, status: RefundStatus, providerRefundID: String?, at: Date) async throws -> Refund {
        let restocked: [UUID] = try await translatingUnavailable {
            try await database.withTransaction { connection in
                // The order's row first: settlements of its refunds take turns, so the last one to
                // succeed sees the others settled and makes the order `refunded`.
                try await connection.query(
                    "SELECT o.id FROM orders o JOIN refunds r ON r.order_id = o.id WHERE r.id = $1 FOR UPDATE OF o", id)
                let moved = try await connection.query(
                    """
                    UPDATE refunds SET status = $2, provider_refund_id = COALESCE(provider_refund_id, $3), updated_at = $4
                    WHERE id = $1 AND status IN ('pending', 'requires_action') RETURNING order_id, amount, restock
                    """, id, status.rawValue, providerRefundID, at
                ).rows
                guard let row = moved.first else { return [] }
                let orderID: UUID = try row.decode("order_id")
                var restocked: [UUID] = []
                // Refunds are asked for by the staff (a refund, a return received), so the order's
                // change to `refunded` is theirs, whichever of answer, event or pass settles it.
                try await OrderUnits.name(.staff, on: connection)
                switch status {
                case .succeeded:
                    if try row.decode("restock", as: Bool.self) {
                        try await OrderUnits.lockVariants(ofRefund: id, on: connection)
                        restocked = try await connection.query(
                            """
                            WITH returned AS (
                                UPDATE item_variants v SET stock = v.stock + l.quantity FROM refund_lines l
                                WHERE l.refund_id = $1 AND v.id = l.variant_id RETURNING v.id, l.quantity, v.stock
                            )
                            INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
                            SELECT id, quantity, stock, 'refunded', $2, $3 FROM returned RETURNING variant_id
                            """, id, orderID, at
                        ).rows.map { try $0.decode("variant_id") }
                    }
                    // Its withdrawn units may leave nothing to ship: the order is then shipped, or
                    // delivered when every shipment is.
                    try await OrderUnits.settleFulfilment(of: orderID, at: at, on: connection)
                    try await connection.query(
                        """
                        UPDATE orders SET status = 'refunded', updated_at = $2
                        WHERE id = $1 AND status = 'paid' AND refunded_amount = total_amount
                          AND NOT EXISTS (SELECT 1 FROM refunds WHERE order_id = $1 AND status IN ('pending', 'requires_action'))
                        """, orderID, at)
                case .failed, .canceled:
                    try await connection.query(
                        "UPDATE orders SET refunded_amount = refunded_amount - $2, updated_at = $3 WHERE id = $1", orderID,
                        try row.decode("amount", as: Int64.self), at)
                    // Its units are free to refund again, and to restock when it would have, and
                    // those it withdrew are to ship again. (Never below 0: Migrations/0030 counted
                    // a line's earlier refunds at most up to it.)
                    try await connection.query(
                        """
                        UPDATE order_lines
                        SET refunded_quantity = GREATEST(refunded_quantity - l.quantity, 0),
                            returned_quantity = returned_quantity - CASE WHEN $2 THEN l.quantity ELSE 0 END,
                            withdrawn_quantity = withdrawn_quantity - l.withdrawn
                        FROM refund_lines l
                        WHERE l.refund_id = $1 AND order_lines.order_id = l.order_id AND order_lines.variant_id = l.variant_id
                        """, id, try row.decode("restock", as: Bool.self))
                    // An order shipped while they were withdrawn has them to ship again.
                    try await OrderUnits.settleFulfilment(of: orderID, at: at, on: connection)
                    // A return received while this refund was pending is approved again, as one
                    // whose refund fails at once stays: it showed `received` with a refund that
                    // never came, and nothing told the staff the customer was still owed.
                    try await connection.query(
                        """
                        WITH reopened AS (
                            UPDATE returns SET status = 'approved', updated_at = $2 WHERE refund_id = $1 AND status = 'received'
                            RETURNING id, order_id
                        )
                        INSERT INTO order_events (order_id, type, at, actor, data)
                        SELECT order_id, 'return_refund_failed', $2, 'system', jsonb_build_object('return_id', id::text) FROM reopened
                        """, id, at)
                case .pending, .requiresAction:
                    break
                }
                return restocked
            }
        }
        itemCache.forget(owning: restocked)
        guard let refund = try await load(id) else { throw StoreUnavailable("refund \(id) vanished") }
        return refund
    }

    public func unsettledRefunds(orderID: UUID) async throws -> [Refund] {
        let ids: [UUID] = try await translatingUnavailable {
            try await database.query(
                "SELECT id FROM refunds WHERE order_id = $1 AND status IN ('pending', 'requires_action') ORDER BY created_at, id", orderID
            ).rows.map { try $0.decode("id") }
        }
        var refunds: [Refund] = []
        for id in ids { if let refund = try await load(id) { refunds.append(refund) } }
        return refunds
    }

    public func claimUnsettledRefunds(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Refund] {
        let ids: [UUID] = try await translatingUnavailable {
            try await database.query(
                """
                WITH due AS MATERIALIZED (
                    SELECT id FROM refunds WHERE status IN ('pending', 'requires_action') AND updated_at < $1
                    ORDER BY updated_at LIMIT $3 FOR NO KEY UPDATE SKIP LOCKED)
                UPDATE refunds r SET updated_at = $2 FROM due WHERE r.id = due.id
                RETURNING r.id
                """, cutoff, at, limit
            ).rows.map { try $0.decode("id") }
        }
        var refunds: [Refund] = []
        for id in ids { if let refund = try await load(id) { refunds.append(refund) } }
        return refunds
    }

    private func load(_ id: UUID) async throws -> Refund? {
        try await translatingUnavailable {
            guard
                let row = try await database.query(
                    """
                    SELECT r.id, r.order_id, r.amount, r.currency, r.reason, r.restock, r.status, r.provider_refund_id, r.created_at,
                           o.payment_intent_id
                    FROM refunds r JOIN orders o ON o.id = r.order_id WHERE r.id = $1
                    """, id
                ).rows.first
            else { return nil }
            let lines = try await database.query(
                "SELECT variant_id, quantity FROM refund_lines WHERE refund_id = $1 ORDER BY variant_id", id
            ).rows.map { RefundLine(variantID: try $0.decode("variant_id"), quantity: try $0.decode("quantity")) }
            let status = try row.enumeration("status", as: RefundStatus.self)
            let reason = try row.enumeration("reason", as: RefundReason.self)
            return Refund(
                id: try row.decode("id"), orderID: try row.decode("order_id"),
                amount: try row.money(amount: "amount", currency: "currency"),
                reason: reason, restock: try row.decode("restock"), lines: lines, status: status,
                providerRefundID: try row.decode("provider_refund_id"),
                paymentIntentID: try row.decode("payment_intent_id", as: String?.self) ?? "",
                createdAt: try row.decode("created_at"))
        }
    }
}
