import Domain
import Foundation
import Postgres

/// The transaction that places an order. A variant's row stays locked from its reservation until
/// COMMIT, and every other checkout of that variant waits on it: a hot item sells no faster than
/// one lock at a time. So everything that can come before the lock does (the cart read with its
/// prices, the shipping choice, the order inserted with its totals), and each line's reservation
/// writes its stock movement and its order line in the same statement: what is left under the
/// lock is the COMMIT.
///
/// The prices are therefore read before the lock (`Pricing.asRead`): a reservation takes stock
/// only at the price the order was priced at, and when the staff changed it in between the
/// transaction is run again reading the cart under lock (`.locked`), so it cannot happen twice.
extension PostgresOrderStore {
    enum Pricing {
        /// The cart's prices read without a lock; a reservation at another price throws `PriceMoved`.
        case asRead
        /// The cart's variants locked as they are read, in variant-id order.
        case locked
    }

    /// A price changed between the cart's read and a line's reservation.
    struct PriceMoved: Error {}

    /// A cart line with its variant and item as the cart's read found them.
    private struct CheckoutLine {
        let variantID: UUID
        let itemID: UUID
        let quantity: Int
        let sku: String
        /// The variant's choice of its item's options, as the order line stores it.
        let options: String
        let name: String
        let unitPrice: Money
        let taxClass: TaxClass
        let removed: Bool

        var key: CartLineKey { CartLineKey(itemID: itemID, variantID: variantID) }
    }

    /// The transaction of `placeOrder`: the order and the variants whose stock it reserved; `nil`
    /// when the idempotency key is taken.
    /// - Throws: `OrderError`, `PriceMoved` (`.asRead` only), `PostgresError`.
    func place(id: UUID, request: CheckoutRequest, at: Date, pricing: Pricing, on connection: PostgresConnection) async throws
        -> (id: UUID, variants: [UUID])?
    {
        // The order's `placed` event (written by the trigger) names the customer.
        try await OrderUnits.name(.customer, on: connection)
        let cart = try await cartLines(of: request.customerID, pricing: pricing, on: connection)
        // What refuses the checkout is thrown only once the key is claimed: a repeated request
        // answers with its first order, whatever the cart holds now.
        let shipping: Result<(address: Address, offer: ShippingOffer)?, OrderError>
        do {
            shipping = .success(try await shippingChoice(request, on: connection))
        } catch let error as OrderError {
            shipping = .failure(error)
        }
        // Lines the staff repriced in another currency since they were carted.
        let repriced = cart.filter { !$0.removed && $0.unitPrice.currency != currency }.map(\.key)
        let totals = Result { try self.totals(of: cart.filter { !$0.removed && $0.unitPrice.currency == currency }, shipping) }
        // Claiming the key first: a concurrent request with the same key waits here for this
        // transaction and then finds the key taken, instead of competing for stock.
        guard try await claim(id: id, request: request, at: at, totals: try? totals.get(), shipping: try? shipping.get(), on: connection)
        else { return nil }
        guard !cart.isEmpty else { throw OrderError.emptyCart }
        _ = try shipping.get()

        var short: [InsufficientLine] = []
        for line in cart where line.removed || line.unitPrice.currency == currency {
            let available = line.removed ? 0 : try await reserve(line, order: id, at: at, pricing: pricing, on: connection)
            if let available { short.append(InsufficientLine(line: line.key, requested: line.quantity, available: available)) }
        }
        // Throwing rolls everything back: no stock reserved, no order, the key free again.
        guard repriced.isEmpty else { throw OrderError.unavailableItems(repriced) }
        guard short.isEmpty else { throw OrderError.insufficientStock(short) }
        _ = try totals.get()
        return (id, cart.map(\.variantID))
    }

    /// The customer's cart in variant-id order, with each variant's price, options and item.
    private func cartLines(of customerID: UUID, pricing: Pricing, on connection: PostgresConnection) async throws -> [CheckoutLine] {
        let rows = try await connection.query(
            """
            SELECT l.variant_id, l.quantity, v.item_id, v.sku, v.options, i.options AS item_options, i.name, v.price_amount,
                   v.price_currency, i.tax_class, v.removed_at IS NOT NULL AS removed
            FROM cart_lines l JOIN item_variants v ON v.id = l.variant_id JOIN items i ON i.id = v.item_id
            WHERE l.customer_id = $1 ORDER BY l.variant_id
            """ + (pricing == .locked ? " FOR UPDATE OF v" : ""), customerID
        ).rows
        return try rows.map { row in
            CheckoutLine(
                variantID: try row.decode("variant_id"), itemID: try row.decode("item_id"), quantity: try row.decode("quantity"),
                sku: try row.decode("sku"),
                options: CatalogJSON.encodeInOrder(
                    try CatalogJSON.choice(try row.decode("options"), in: try CatalogJSON.options(try row.decode("item_options")))),
                name: try row.decode("name"), unitPrice: try row.money(amount: "price_amount", currency: "price_currency"),
                taxClass: try row.enumeration("tax_class", as: TaxClass.self), removed: try row.decode("removed"))
        }
    }

    /// The fee for this subtotal (free past the method's threshold), then the tax per rate, once
    /// for the whole order (the qualified-invoice rule).
    /// - Throws: `OrderError.shippingNotOffered`, `MoneyError`.
    private func totals(of lines: [CheckoutLine], _ shipping: Result<(address: Address, offer: ShippingOffer)?, OrderError>) throws
        -> OrderTotals
    {
        let priced = try lines.map { (taxClass: $0.taxClass, total: try $0.unitPrice.multiplied(by: $0.quantity)) }
        let subtotal = try priced.reduce(Money(amount: 0, currency: currency)) { try $0.adding($1.total) }
        var fee = Money(amount: 0, currency: currency)
        if let choice = try shipping.get() {
            guard let option = choice.offer.option(for: choice.address, subtotal: subtotal) else { throw OrderError.shippingNotOffered }
            fee = option.fee
        }
        return try OrderTotals.compute(lines: priced, shippingFee: fee, policy: taxPolicy)
    }

    /// Inserts the order with its totals (zero when the checkout is about to be refused), unless
    /// the customer used the key before: then it inserts nothing and answers false.
    private func claim(
        id: UUID, request: CheckoutRequest, at: Date, totals: OrderTotals?, shipping: (address: Address, offer: ShippingOffer)?,
        on connection: PostgresConnection
    ) async throws -> Bool {
        let zero = Money(amount: 0, currency: currency)
        let totals = totals ?? OrderTotals(subtotal: zero, shippingFee: zero, taxLines: [], total: zero)
        let claimed = try await connection.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                request_fingerprint, created_at, updated_at, subtotal_amount, shipping_fee_amount, prices_include_tax,
                                tax_lines, shipping)
            VALUES ($1, $2, 'pending_payment', $7, $8, $3, $4, $5, $6, $6, $9, $10, $11, $12::jsonb, $13::jsonb)
            ON CONFLICT (customer_id, idempotency_key) DO NOTHING RETURNING id
            """, id, request.customerID, request.paymentMethod, request.idempotencyKey, request.fingerprint, at,
            totals.total.amount, totals.total.currency.code, totals.subtotal.amount, totals.shippingFee.amount,
            taxPolicy.pricesIncludeTax, try StoredTaxLines.json(totals.taxLines),
            try shipping.map { choice in
                try StoredShipping.json(
                    OrderShipping(
                        address: ShippingAddress(choice.address), methodID: choice.offer.method.id, methodName: choice.offer.method.name,
                        carrier: choice.offer.method.carrier))
            })
        return !claimed.rows.isEmpty
    }

    /// Reserves the line's units at the price it was read at, recording the stock movement and
    /// the order line in the same statement; `nil` when it did, else the units left.
    /// - Throws: `PriceMoved` when the price is what changed (`.asRead` only).
    private func reserve(_ line: CheckoutLine, order: UUID, at: Date, pricing: Pricing, on connection: PostgresConnection) async throws
        -> Int?
    {
        let reserved = try await connection.query(
            """
            WITH taken AS (
                UPDATE item_variants SET stock = stock - $2
                WHERE id = $1 AND stock >= $2 AND removed_at IS NULL AND price_amount = $5 AND price_currency = $6
                RETURNING stock
            ), recorded AS (
                INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
                SELECT $1, -$2::integer, stock, 'ordered', $3, $4 FROM taken
            ), ordered AS (
                INSERT INTO order_lines (order_id, variant_id, item_id, sku, options, name, unit_price_amount, unit_price_currency,
                                         quantity, tax_class)
                SELECT $3, $1, $7, $8, $9::jsonb, $10, $5, $6, $2, $11 FROM taken
            )
            SELECT 1 FROM taken
            """, line.variantID, line.quantity, order, at, line.unitPrice.amount, line.unitPrice.currency.code, line.itemID, line.sku,
            line.options, line.name, line.taxClass.rawValue
        ).rows
        guard reserved.isEmpty else { return nil }
        let variant = try await connection.query(
            "SELECT stock, removed_at IS NOT NULL AS removed, price_amount, price_currency FROM item_variants WHERE id = $1",
            line.variantID
        ).rows.first
        guard let variant, !(try variant.decode("removed", as: Bool.self)) else { return 0 }
        guard try variant.money(amount: "price_amount", currency: "price_currency") == line.unitPrice else {
            // Under `.locked` the row was read locked: its price cannot have moved.
            guard pricing == .asRead else { throw StoreUnavailable("a locked variant's price changed") }
            throw PriceMoved()
        }
        return try variant.decode("stock")
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
}
