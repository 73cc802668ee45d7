import Domain
import Foundation
import Postgres

/// The transaction that places an order. A variant's row stays locked from its reservation until
/// COMMIT, and every other checkout of that variant waits on it: a hot item sells no faster than
/// one lock at a time. So everything that can come before the lock does (the cart read with its
/// variants and items, the shipping choice, the order inserted with its totals), and each line's
/// reservation writes its stock movement and its order line in the same statement: what is left
/// under the lock is the COMMIT.
///
/// The variants and items are therefore read before the lock (`Pricing.asRead`): a reservation
/// takes stock only while the variant and its item are as read (price, SKU, options, name, tax
/// class), so the order line and the totals say what was sold. When the staff changed one in
/// between, the transaction runs again with the cart's variants read under lock (`.locked`), at
/// most twice more (`placing`).
extension PostgresOrderStore {
    private enum Pricing {
        /// The cart's variants and items read without a lock; a reservation of a variant or item
        /// changed since throws `VariantChanged`.
        case asRead
        /// The key claimed first, then the cart's variants locked as they are read, in variant-id
        /// order. Their items are not locked (the staff's edits lock an item before its variants:
        /// a checkout holding a variant while waiting for its item could deadlock with them); an
        /// item changed meanwhile still throws `VariantChanged`.
        case locked
    }

    /// A variant or its item changed between the cart's read and a line's reservation.
    private struct VariantChanged: Error {}

    /// `place` in a transaction of its own: as read first, then locked while a variant or an
    /// item changes under it, three runs in all.
    /// - Throws: as `place`; `StoreUnavailable` when the cart changed under every run.
    func placing(id: UUID, request: CheckoutRequest, at: Date) async throws -> (id: UUID, variants: [UUID])? {
        for pricing in [Pricing.asRead, .locked, .locked] {
            do {
                return try await database.withTransaction { connection in
                    try await place(id: id, request: request, at: at, pricing: pricing, on: connection)
                }
            } catch is VariantChanged {
                continue
            }
        }
        throw StoreUnavailable("the cart's variants or items kept changing during the checkout")
    }

    /// A cart line with its variant and item as the cart's read found them.
    private struct CheckoutLine {
        let variantID: UUID
        let itemID: UUID
        let quantity: Int
        let sku: String
        /// The variant's and its item's options as stored: the reservation checks them unchanged.
        let variantOptions: String
        let itemOptions: String
        let name: String
        let unitPrice: Money
        let taxClass: TaxClass
        let removed: Bool

        var key: CartLineKey { CartLineKey(itemID: itemID, variantID: variantID) }
    }

    private typealias ShippingChoice = (address: Address, offer: ShippingOffer)

    /// The transaction of `placeOrder`: the order and the variants whose stock it reserved; `nil`
    /// when the idempotency key is taken.
    /// - Throws: `OrderError`, `VariantChanged`, `PostgresError`.
    private func place(id: UUID, request: CheckoutRequest, at: Date, pricing: Pricing, on connection: PostgresConnection) async throws
        -> (id: UUID, variants: [UUID])?
    {
        try await holdCustomer(request.customerID, on: connection)
        // Claiming the key before any reservation: a concurrent request with the same key waits
        // there for this transaction and then finds the key taken, instead of competing for stock.
        // Under `.locked` the claim also comes before the cart's locks: a request with the key
        // holding it while waiting for one of them would deadlock with this one.
        if pricing == .locked {
            guard try await claim(id: id, request: request, at: at, totals: nil, shipping: nil, on: connection) else { return nil }
        }
        let (cart, awaiting, paying) = try await cartLines(
            of: request.customerID, besides: id, payingSince: at - request.paymentUnderWay, pricing: pricing, on: connection)
        // What refuses the checkout is thrown only once the key is claimed: a repeated request
        // answers with its first order, whatever the cart holds now.
        let shipping: Result<ShippingChoice?, OrderError>
        do {
            shipping = .success(try await shippingChoice(request, on: connection))
        } catch let error as OrderError {
            shipping = .failure(error)
        }
        // Lines the staff repriced in another currency since they were carted.
        let repriced = cart.filter { !$0.removed && $0.unitPrice.currency != currency }.map(\.key)
        let totals = Result { try self.totals(of: cart.filter { !$0.removed && $0.unitPrice.currency == currency }, shipping) }
        switch pricing {
        case .asRead:
            guard
                try await claim(id: id, request: request, at: at, totals: try? totals.get(), shipping: try? shipping.get(), on: connection)
            else { return nil }
        case .locked:
            if let totals = try? totals.get() { try await record(totals, shipping: try? shipping.get(), of: id, on: connection) }
        }
        guard !cart.isEmpty else { throw OrderError.emptyCart }
        if let paying { throw OrderError.checkoutInProgress(paying) }
        guard awaiting.count < request.awaitingPaymentLimit else { throw OrderError.awaitingPayment(awaiting) }
        _ = try shipping.get()
        // Before any reservation, a total the provider would refuse, or not the one the app
        // showed, takes no lock (when every line can be bought: else those lines are what the
        // answer names).
        if repriced.isEmpty, !cart.contains(where: \.removed), let total = try? totals.get().total {
            if total.amount < request.minimumCharge.amount {
                throw OrderError.belowMinimumCharge(total: total, minimum: request.minimumCharge)
            }
            if let maximum = request.maximumCharge, total.amount > maximum.amount {
                throw OrderError.aboveMaximumCharge(total: total, maximum: maximum)
            }
            if let expected = request.expectedTotal, total != expected {
                throw OrderError.totalChanged(total: total, expected: expected)
            }
        }

        var short: [InsufficientLine] = []
        for line in cart where line.removed || line.unitPrice.currency == currency {
            let available = line.removed ? 0 : try await reserve(line, order: id, at: at, on: connection)
            if let available { short.append(InsufficientLine(line: line.key, requested: line.quantity, available: available)) }
        }
        // An item archived since the cart was read: the archive locks the item's variants, so it
        // waited for any reservation made before it, and a reservation after it waited for it and
        // sees it in this next statement (nothing sells after an archive commits).
        let archived = try await archivedItems(of: cart, on: connection)
        for line in cart where archived.contains(line.itemID) && !short.contains(where: { $0.line == line.key }) {
            short.append(InsufficientLine(line: line.key, requested: line.quantity, available: 0))
        }
        // Throwing rolls everything back: no stock reserved, no order, the key free again.
        guard repriced.isEmpty else { throw OrderError.unavailableItems(repriced) }
        guard short.isEmpty else { throw OrderError.insufficientStock(short) }
        _ = try totals.get()
        return (id, cart.map(\.variantID))
    }

    /// The items of `cart` archived now.
    private func archivedItems(of cart: [CheckoutLine], on connection: PostgresConnection) async throws -> Set<UUID> {
        let ids = PostgresUUIDArray(Array(Set(cart.map(\.itemID))))
        return Set(
            try await connection.query("SELECT id FROM items WHERE id = ANY($1) AND archived_at IS NOT NULL", ids).rows.map {
                try $0.decode("id")
            })
    }

    /// Locks the customer's row (`FOR NO KEY UPDATE`, which a foreign key's check does not wait
    /// on) until COMMIT, so that the orders awaiting payment read next are ones no other
    /// checkout of theirs can add to meanwhile, and names the customer as the actor of the
    /// order's `placed` event (written by the trigger, `OrderUnits.name`).
    private func holdCustomer(_ customerID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            "SELECT set_config('storefront.actor', $2, true) FROM customers WHERE id = $1 FOR NO KEY UPDATE", customerID,
            EventActor.customer.rawValue)
    }

    /// The customer's cart in variant-id order, with each variant's price, options and item, and
    /// their orders other than `order` waiting for payment, oldest first (read in the same
    /// statement: one round trip less on every checkout; `holdCustomer` comes first, so none can
    /// join them meanwhile).
    private func cartLines(
        of customerID: UUID, besides order: UUID, payingSince: Date, pricing: Pricing, on connection: PostgresConnection
    ) async throws
        -> (lines: [CheckoutLine], awaitingPayment: [UUID], paying: UUID?)
    {
        let rows = try await connection.query(
            """
            SELECT l.variant_id, l.quantity, v.item_id, v.sku, v.options, i.options AS item_options, i.name, v.price_amount,
                   v.price_currency, i.tax_class, (v.removed_at IS NOT NULL OR i.archived_at IS NOT NULL) AS removed,
                   (SELECT string_agg(o.id::text, ',' ORDER BY o.created_at, o.id) FROM orders o
                    WHERE o.customer_id = $1 AND o.id <> $2 AND o.status IN ('pending_payment', 'requires_action')) AS awaiting,
                   (SELECT o.id FROM orders o WHERE o.customer_id = $1 AND o.id <> $2 AND o.status = 'pending_payment'
                      AND o.created_at > $3 ORDER BY o.created_at, o.id LIMIT 1) AS paying
            FROM cart_lines l JOIN item_variants v ON v.id = l.variant_id JOIN items i ON i.id = v.item_id
            WHERE l.customer_id = $1 ORDER BY l.variant_id
            """ + (pricing == .locked ? " FOR NO KEY UPDATE OF v" : ""), customerID, order, payingSince
        ).rows
        // Their ids joined by commas, NULL for none.
        let listed = try rows.first.flatMap { try $0.decode("awaiting", as: String?.self) } ?? ""
        let awaiting = listed.split(separator: ",").compactMap { UUID(uuidString: String($0)) }
        let paying = try rows.first.flatMap { try $0.decode("paying", as: UUID?.self) }
        let lines = try rows.map { row in
            CheckoutLine(
                variantID: try row.decode("variant_id"), itemID: try row.decode("item_id"), quantity: try row.decode("quantity"),
                sku: try row.decode("sku"), variantOptions: try row.decode("options"), itemOptions: try row.decode("item_options"),
                name: try row.decode("name"), unitPrice: try row.money(amount: "price_amount", currency: "price_currency"),
                taxClass: try row.enumeration("tax_class", as: TaxClass.self), removed: try row.decode("removed"))
        }
        return (lines, awaiting, paying)
    }

    /// The fee for this subtotal (free past the method's threshold), then the tax per rate, once
    /// for the whole order (the qualified-invoice rule).
    /// - Throws: `OrderError.shippingNotOffered`, `MoneyError`.
    private func totals(of lines: [CheckoutLine], _ shipping: Result<ShippingChoice?, OrderError>) throws
        -> OrderTotals
    {
        let priced = try lines.map { (taxClass: $0.taxClass, total: try $0.unitPrice.multiplied(by: $0.quantity)) }
        let subtotal = try priced.reduce(Money(amount: 0, currency: currency)) { try $0.adding($1.total) }
        var fee = Money(amount: 0, currency: currency)
        if let choice = try shipping.get() {
            guard let quote = choice.offer.quote(for: choice.address, subtotal: subtotal) else { throw OrderError.shippingNotOffered }
            fee = quote.fee
        }
        return try OrderTotals.compute(lines: priced, shippingFee: fee, policy: taxPolicy)
    }

    /// Inserts the order with its totals (zero when the checkout is about to be refused, or is
    /// yet to read its cart), unless the customer used the key before: then it inserts nothing and
    /// answers false.
    private func claim(
        id: UUID, request: CheckoutRequest, at: Date, totals: OrderTotals?, shipping: ShippingChoice?, on connection: PostgresConnection
    ) async throws -> Bool {
        let zero = Money(amount: 0, currency: currency)
        let stored = try StoredTotals(
            totals ?? OrderTotals(subtotal: zero, shippingFee: zero, taxLines: [], total: zero), shipping: shipping, policy: taxPolicy)
        let claimed = try await connection.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                request_fingerprint, created_at, updated_at, subtotal_amount, shipping_fee_amount, prices_include_tax,
                                tax_lines, shipping)
            VALUES ($1, $2, 'pending_payment', $7, $8, $3, $4, $5, $6, $6, $9, $10, $11, $12::jsonb, $13::jsonb)
            ON CONFLICT (customer_id, idempotency_key) DO NOTHING RETURNING id
            """, id, request.customerID, request.paymentMethod, request.idempotencyKey, request.fingerprint, at, stored.total,
            stored.currency, stored.subtotal, stored.shippingFee, stored.pricesIncludeTax, stored.taxLines, stored.shipping)
        return !claimed.rows.isEmpty
    }

    /// Writes the totals of the order claimed before its cart was read (`.locked`).
    private func record(_ totals: OrderTotals, shipping: ShippingChoice?, of id: UUID, on connection: PostgresConnection) async throws {
        let stored = try StoredTotals(totals, shipping: shipping, policy: taxPolicy)
        try await connection.query(
            """
            UPDATE orders SET total_amount = $2, total_currency = $3, subtotal_amount = $4, shipping_fee_amount = $5,
                              prices_include_tax = $6, tax_lines = $7::jsonb, shipping = $8::jsonb
            WHERE id = $1
            """, id, stored.total, stored.currency, stored.subtotal, stored.shippingFee, stored.pricesIncludeTax, stored.taxLines,
            stored.shipping)
    }

    /// An order's totals and shipping as its columns hold them.
    private struct StoredTotals {
        let total: Int64
        let currency: String
        let subtotal: Int64
        let shippingFee: Int64
        let pricesIncludeTax: Bool
        let taxLines: String
        let shipping: String?

        init(_ totals: OrderTotals, shipping: ShippingChoice?, policy: TaxPolicy) throws {
            total = totals.total.amount
            currency = totals.total.currency.code
            subtotal = totals.subtotal.amount
            shippingFee = totals.shippingFee.amount
            pricesIncludeTax = policy.pricesIncludeTax
            taxLines = try StoredTaxLines.json(totals.taxLines)
            self.shipping = try shipping.map { choice in
                try StoredShipping.json(
                    OrderShipping(
                        address: ShippingAddress(choice.address), methodID: choice.offer.method.id, methodName: choice.offer.method.name,
                        carrier: choice.offer.method.carrier))
            }
        }
    }

    /// Reserves the line's units while its variant and item are as read, recording the stock
    /// movement and the order line in the same statement; `nil` when it did, else the units left.
    /// - Throws: `VariantChanged` when the variant or its item is what changed.
    private func reserve(_ line: CheckoutLine, order: UUID, at: Date, on connection: PostgresConnection) async throws
        -> Int?
    {
        // What the line was read as ($1 to $9 of both statements). The item's row is never locked:
        // it is checked in the statement's snapshot.
        let asRead = """
            price_amount = $2 AND price_currency = $3 AND sku = $5 AND options = $6::jsonb
            AND EXISTS (SELECT 1 FROM items i WHERE i.id = $4 AND i.id = item_id AND i.name = $7 AND i.tax_class = $8
                        AND i.options = $9::jsonb)
            """
        let read: [any PostgresEncodable] = [
            line.variantID, line.unitPrice.amount, line.unitPrice.currency.code, line.itemID, line.sku, line.variantOptions, line.name,
            line.taxClass.rawValue, line.itemOptions,
        ]
        let reserved = try await connection.query(
            """
            WITH taken AS (
                UPDATE item_variants SET stock = stock - $10
                WHERE id = $1 AND stock >= $10 AND removed_at IS NULL AND \(asRead)
                RETURNING stock
            ), recorded AS (
                INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
                SELECT $1, -$10::integer, stock, 'ordered', $11, $12 FROM taken
            ), ordered AS (
                INSERT INTO order_lines (order_id, variant_id, item_id, sku, options, name, unit_price_amount, unit_price_currency,
                                         quantity, tax_class)
                SELECT $11, $1, $4, $5, $13::jsonb, $7, $2, $3, $10, $8 FROM taken
            )
            SELECT 1 FROM taken
            """,
            binds: read + [
                line.quantity, order, at,
                CatalogJSON.encodeInOrder(try CatalogJSON.choice(line.variantOptions, in: try CatalogJSON.options(line.itemOptions))),
            ]
        ).rows
        guard reserved.isEmpty else { return nil }
        let variant = try await connection.query(
            "SELECT stock, removed_at IS NOT NULL AS removed, (\(asRead)) AS unchanged FROM item_variants WHERE id = $1", binds: read
        ).rows.first
        guard let variant, !(try variant.decode("removed", as: Bool.self)) else { return 0 }
        let stock: Int = try variant.decode("stock")
        // Changed, or changed and changed back since the reservation: either way not a shortage.
        guard try variant.decode("unchanged", as: Bool.self), stock < line.quantity else { throw VariantChanged() }
        return stock
    }

    /// The address and the method's offer there, read in the checkout's transaction; `nil` for a
    /// checkout that ships nothing, which only a shop without an active shipping method takes.
    /// - Throws: `OrderError.shippingRequired`, `.addressNotFound`, `.shippingNotOffered`.
    private func shippingChoice(_ request: CheckoutRequest, on connection: PostgresConnection) async throws -> ShippingChoice? {
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
}
