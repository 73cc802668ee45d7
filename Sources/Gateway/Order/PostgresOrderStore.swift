import Domain
import Foundation
import Postgres

/// `OrderStore` on PostgreSQL: tables `orders` and `order_lines` (Migrations/0004_orders.sql).
/// Stock is reserved with one conditional `UPDATE ... WHERE stock >= $q` per line on the
/// variant's row, in variant-id order so that concurrent checkouts never deadlock, and never
/// driven below zero; every change of stock is recorded in `stock_movements`. An order reads
/// its staff refunds from `refunds` (see `PostgresRefundStore`).
public struct PostgresOrderStore: OrderStore {
    let database: PostgresPool
    /// The shop's currency: an order is priced in it, and a line priced otherwise is refused.
    private let currency: Currency

    /// Whether prices include tax and how it is rounded: each order's tax is computed by it once.
    private let taxPolicy: TaxPolicy
    /// Where every change of stock made here forgets the variants' items.
    private let itemCache: ItemCache

    public init(database: PostgresPool, currency: Currency, taxPolicy: TaxPolicy = TaxPolicy(), itemCache: ItemCache = .off) {
        self.taxPolicy = taxPolicy
        self.database = database
        self.currency = currency
        self.itemCache = itemCache
    }

    public func placeOrder(id: UUID, request: CheckoutRequest, at: Date) async throws -> (order: Order, created: Bool) {
        let placed = try await translatingUnavailable {
            try await database.withTransaction { connection in
                try await reserve(id: id, request: request, at: at, on: connection)
            }
        }
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

    /// The transaction of `placeOrder`: the order and the variants whose stock it reserved; `nil`
    /// when the idempotency key is taken.
    private func reserve(id: UUID, request: CheckoutRequest, at: Date, on connection: PostgresConnection) async throws
        -> (id: UUID, variants: [UUID])?
    {
        // The order's `placed` event (written by the trigger) names the customer.
        try await OrderUnits.name(.customer, on: connection)
        let cart = try await connection.query(
            "SELECT variant_id, quantity FROM cart_lines WHERE customer_id = $1 ORDER BY variant_id", request.customerID
        ).rows.map { (try $0.decode("variant_id", as: UUID.self), try $0.decode("quantity", as: Int.self)) }
        // Claim the key first: a concurrent request with the same key waits here for this
        // transaction and then finds the key taken, instead of competing for stock.
        let claimed = try await connection.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                request_fingerprint, created_at, updated_at)
            VALUES ($1, $2, 'pending_payment', 0, 'XXX', $3, $4, $5, $6, $6)
            ON CONFLICT (customer_id, idempotency_key) DO NOTHING RETURNING id
            """, id, request.customerID, request.paymentMethod, request.idempotencyKey, request.fingerprint, at)
        guard !claimed.rows.isEmpty else { return nil }
        guard !cart.isEmpty else { throw OrderError.emptyCart }
        let shipping = try await shippingChoice(request, on: connection)

        var priced: [(taxClass: TaxClass, total: Money)] = []
        var short: [InsufficientLine] = []
        // Lines the staff repriced in another currency since they were carted (read under the
        // row lock the reservation takes, so no change can slip in between).
        var repriced: [CartLineKey] = []
        for (variantID, quantity) in cart {
            let reserved = try await connection.query(
                """
                WITH taken AS (
                    UPDATE item_variants SET stock = stock - $2 WHERE id = $1 AND stock >= $2 AND removed_at IS NULL
                    RETURNING item_id, sku, options, price_amount, price_currency, stock
                ), recorded AS (
                    INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
                    SELECT $1, -$2::integer, stock, 'ordered', $3, $4 FROM taken
                )
                SELECT t.item_id, t.sku, t.options, i.options AS item_options, t.price_amount, t.price_currency, i.name, i.tax_class
                FROM taken t JOIN items i ON i.id = t.item_id
                """, variantID, quantity, id, at
            ).rows
            guard let line = reserved.first else {
                let variant = try await connection.query(
                    "SELECT item_id, stock, removed_at IS NOT NULL AS removed FROM item_variants WHERE id = $1", variantID
                ).rows.first
                let removed = try variant?.decode("removed", as: Bool.self) ?? true
                short.append(
                    InsufficientLine(
                        line: CartLineKey(itemID: try variant?.decode("item_id") ?? variantID, variantID: variantID),
                        requested: quantity, available: removed ? 0 : try variant?.decode("stock") ?? 0))
                continue
            }
            let itemID: UUID = try line.decode("item_id")
            let price = try line.money(amount: "price_amount", currency: "price_currency")
            guard price.currency == currency else {
                repriced.append(CartLineKey(itemID: itemID, variantID: variantID))
                continue
            }
            let taxClass = try line.enumeration("tax_class", as: TaxClass.self)
            priced.append((taxClass, try price.multiplied(by: quantity)))
            try await connection.query(
                """
                INSERT INTO order_lines (order_id, variant_id, item_id, sku, options, name, unit_price_amount, unit_price_currency,
                                         quantity, tax_class)
                VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)
                """, id, variantID, itemID, try line.decode("sku", as: String.self),
                CatalogJSON.encodeInOrder(
                    try CatalogJSON.choice(try line.decode("options"), in: try CatalogJSON.options(try line.decode("item_options")))),
                try line.decode("name", as: String.self), price.amount, price.currency.code, quantity, taxClass.rawValue)
        }
        // Throwing rolls everything back: no stock reserved, no order, the key free again.
        guard repriced.isEmpty else { throw OrderError.unavailableItems(repriced) }
        guard short.isEmpty else { throw OrderError.insufficientStock(short) }
        // The fee for this subtotal (free past the method's threshold), then the tax per rate, once
        // for the whole order (the qualified-invoice rule).
        let subtotal = try priced.reduce(Money(amount: 0, currency: currency)) { try $0.adding($1.total) }
        var fee = Money(amount: 0, currency: currency)
        if let shipping {
            guard let option = shipping.offer.option(for: shipping.address, subtotal: subtotal) else { throw OrderError.shippingNotOffered }
            fee = option.fee
        }
        let totals = try OrderTotals.compute(lines: priced, shippingFee: fee, policy: taxPolicy)
        try await connection.query(
            """
            UPDATE orders SET total_amount = $2, total_currency = $3, subtotal_amount = $4, shipping_fee_amount = $5,
                              prices_include_tax = $6, tax_lines = $7::jsonb, shipping = $8::jsonb
            WHERE id = $1
            """, id, totals.total.amount, totals.total.currency.code, totals.subtotal.amount, totals.shippingFee.amount,
            taxPolicy.pricesIncludeTax, try StoredTaxLines.json(totals.taxLines),
            try shipping.map { choice in
                try StoredShipping.json(
                    OrderShipping(
                        address: ShippingAddress(choice.address), methodID: choice.offer.method.id, methodName: choice.offer.method.name,
                        carrier: choice.offer.method.carrier))
            })
        return (id, cart.map(\.0))
    }

    /// The address and the method's offer there, read in the checkout's transaction; `nil` for a
    /// checkout that ships nothing, which only a shop without an active shipping method takes.
    /// - Throws: `OrderError.shippingRequired`, `.addressNotFound`, `.shippingNotOffered`.
    private func shippingChoice(_ request: CheckoutRequest, on connection: PostgresConnection) async throws
        -> (address: Address, offer: ShippingOffer)?
    {
        guard let addressID = request.addressID, let methodID = request.shippingMethodID else {
            let ships = try await connection.query("SELECT 1 FROM shipping_methods WHERE active LIMIT 1").rows
            guard ships.isEmpty else { throw OrderError.shippingRequired }
            return nil
        }
        let addresses = try await connection.query(
            "SELECT \(PostgresAddressStore.columns) FROM addresses WHERE id = $1 AND customer_id = $2", addressID, request.customerID)
        guard let address = try addresses.rows.first.map(PostgresAddressStore.record(from:)) else { throw OrderError.addressNotFound }
        let offers = try await PostgresShippingOffers.offers(shippingTo: address.country, method: methodID, on: connection)
        guard let offer = offers.first, offer.rate(for: address) != nil else { throw OrderError.shippingNotOffered }
        return (address, offer)
    }

    public func attachPayment(orderID: UUID, paymentIntentID: String) async throws -> Bool {
        try await translatingUnavailable {
            !(try await database.query(
                "UPDATE orders SET payment_intent_id = $2, updated_at = now() WHERE id = $1 AND status = 'pending_payment' RETURNING id",
                orderID, paymentIntentID
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
                let moved = try await connection.query(
                    """
                    UPDATE orders SET status = $3, updated_at = $4, refund_id = COALESCE($5, refund_id),
                                      refund_status = COALESCE($6, refund_status),
                                      refunded_amount = CASE
                                          WHEN $3 IN ('refund_pending', 'refunded') THEN total_amount
                                          WHEN $2 = 'refund_pending' THEN (SELECT COALESCE(sum(amount), 0) FROM refunds
                                               WHERE order_id = $1 AND status NOT IN ('failed', 'canceled'))
                                          ELSE refunded_amount END
                    WHERE id = $1 AND status = $2
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
                    try await connection.query("UPDATE order_lines SET returned_quantity = quantity WHERE order_id = $1", orderID)
                }
                return restocked
            }
        }
        guard let restocked else { return false }
        itemCache.forget(owning: restocked)
        return true
    }

    public func markPaid(orderID: UUID, at: Date) async throws -> Order {
        let customerID: UUID = try await translatingUnavailable {
            try await database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    UPDATE orders SET status = 'paid', updated_at = $2
                    WHERE id = $1 AND status IN ('pending_payment', 'requires_action') RETURNING customer_id
                    """,
                    orderID, at
                ).rows
                if let row = rows.first {
                    let customer: UUID = try row.decode("customer_id")
                    try await connection.query(
                        "DELETE FROM cart_lines WHERE customer_id = $1 AND variant_id IN (SELECT variant_id FROM order_lines WHERE order_id = $2)",
                        customer, orderID)
                    return customer
                }
                return try await connection.query("SELECT customer_id FROM orders WHERE id = $1", orderID).rows[0].decode("customer_id")
            }
        }
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

    public func orders(customerID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [Order] {
        let rows = try await translatingUnavailable {
            if let cursor {
                return try await database.query(
                    "SELECT \(Self.columns) FROM orders WHERE customer_id = $1 AND (created_at, id) < ($2::timestamptz, $3::uuid) ORDER BY created_at DESC, id DESC LIMIT $4",
                    customerID, cursor.createdAt, cursor.id, limit
                ).rows
            }
            return try await database.query(
                "SELECT \(Self.columns) FROM orders WHERE customer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2", customerID, limit
            ).rows
        }
        return try orders(from: rows)
    }

    public func pendingOrders(placedBefore cutoff: Date, limit: Int) async throws -> [Order] {
        let rows = try await translatingUnavailable {
            try await database.query(
                "SELECT \(Self.columns) FROM orders WHERE status = 'pending_payment' AND created_at < $1 ORDER BY created_at LIMIT $2",
                cutoff, limit
            ).rows
        }
        return try orders(from: rows)
    }

    public func claimRefundPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order] {
        let rows = try await translatingUnavailable {
            try await database.query(
                """
                UPDATE orders SET updated_at = $2
                WHERE id IN (SELECT id FROM orders WHERE status = 'refund_pending' AND updated_at < $1
                             ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                  AND status = 'refund_pending' AND updated_at < $1
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
        guard let status = OrderStatus(rawValue: try row.decode("status")) else {
            throw PostgresError.decoding(column: "status", swiftType: "OrderStatus", postgresType: "text")
        }
        var refund: RefundRecord?
        if let refundID: String = try row.decode("refund_id") {
            guard let refundStatus = RefundStatus(rawValue: try row.decode("refund_status")) else {
                throw PostgresError.decoding(column: "refund_status", swiftType: "RefundStatus", postgresType: "text")
            }
            refund = RefundRecord(id: refundID, status: refundStatus)
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
