import Foundation

/// One variant of an item in a cart, at its current price.
public struct CartLine: Hashable, Sendable {
    public let itemID: UUID
    public let variantID: UUID
    public let sku: String
    public let name: String
    /// The variant's value of each of its item's options (none for an item without options).
    public let options: [VariantOption]
    /// The item's tax rate class.
    public let taxClass: TaxClass
    public let unitPrice: Money
    public let quantity: Int

    public init(
        itemID: UUID, variantID: UUID, sku: String, name: String, options: [VariantOption] = [], taxClass: TaxClass = .standard,
        unitPrice: Money, quantity: Int
    ) {
        self.itemID = itemID
        self.variantID = variantID
        self.sku = sku
        self.name = name
        self.options = options
        self.taxClass = taxClass
        self.unitPrice = unitPrice
        self.quantity = quantity
    }

    /// - Throws: `MoneyError.overflow` (a line is at most 99 units, a price at most 10^12 minor
    ///   units, the specs' bounds: it cannot happen).
    public func exactTotal() throws(MoneyError) -> Money { try unitPrice.multiplied(by: quantity) }
}

/// A customer's cart, in the shop's currency. Only items priced in it can be added, but the staff
/// may change an item's price currency while it sits in a cart: such a line stays, shown as
/// unavailable, left out of the subtotal and refused at checkout, until the customer removes it.
public struct Cart: Hashable, Sendable {
    public let lines: [CartLine]
    public let currency: Currency

    public init(lines: [CartLine], currency: Currency) {
        self.lines = lines
        self.currency = currency
    }

    /// The lines that cannot be bought now: priced in another currency than the cart's.
    public var unavailableLines: [CartLine] { lines.filter { $0.unitPrice.currency != currency } }

    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }

    /// The totals its checkout would come to with `shippingFee` (zero: the goods alone), taxed by
    /// `policy` once for the whole order, as `OrderTotals` taxes the order itself; the lines that
    /// cannot be bought are left out.
    /// - Throws: `MoneyError.overflow` past Int64's range (which `Cart.maxLines` lines of at
    ///   most 99 units at prices of at most 10^12 cannot reach).
    public func totals(shippingFee: Money? = nil, policy: TaxPolicy) throws(MoneyError) -> OrderTotals {
        var priced: [(taxClass: TaxClass, total: Money)] = []
        for line in lines where line.unitPrice.currency == currency { priced.append((line.taxClass, try line.exactTotal())) }
        return try OrderTotals.compute(lines: priced, shippingFee: shippingFee ?? Money(amount: 0, currency: currency), policy: policy)
    }
}

extension CartView {
    /// The cart as its answer shows it: each line with its total, the subtotal of the lines that
    /// can be bought with their tax and total (before shipping), and those that cannot.
    /// - Throws: `MoneyError.overflow` past Int64's range (as `Cart.totals`).
    public init(_ cart: Cart, taxPolicy: TaxPolicy) throws(MoneyError) {
        var lines: [CartLineView] = []
        for line in cart.lines {
            lines.append(
                CartLineView(
                    itemID: line.itemID, variantID: line.variantID, sku: line.sku, name: line.name, options: line.options,
                    taxClass: line.taxClass, unitPrice: line.unitPrice, quantity: line.quantity, lineTotal: try line.exactTotal()))
        }
        var unavailableItems: [UUID] = []
        for line in cart.unavailableLines where !unavailableItems.contains(line.itemID) { unavailableItems.append(line.itemID) }
        let totals = try cart.totals(policy: taxPolicy)
        self.init(
            lines: lines, subtotal: totals.subtotal, taxLines: totals.taxLines, pricesIncludeTax: taxPolicy.pricesIncludeTax,
            total: totals.total, itemCount: cart.itemCount, unavailableItemIDs: unavailableItems,
            unavailableVariantIDs: cart.unavailableLines.map(\.variantID), shippingOptions: [])
    }

    /// The same cart showing `options`, the ways it can be shipped to an address.
    public func offering(_ options: [ShippingOption]) -> CartView {
        CartView(
            lines: lines, subtotal: subtotal, taxLines: taxLines, pricesIncludeTax: pricesIncludeTax, total: total, itemCount: itemCount,
            unavailableItemIDs: unavailableItemIDs, unavailableVariantIDs: unavailableVariantIDs, shippingOptions: options)
    }
}

extension Cart {
    /// The most lines a cart holds: a checkout reserves every line, so a cart of the whole catalog
    /// could hold its stock. PostgreSQL keeps the bound (the trigger of
    /// Migrations/0038_write_checks.sql, which names the same number) under the lock of the
    /// customer's row, so racing requests of one customer cannot pass it.
    public static let maxLines = 100
}

/// A new line for a cart that already holds `Cart.maxLines`.
public struct CartFull: Error, Equatable, Sendable {
    public init() {}
}

/// A line for a variant the staff removed, or of an item they archived: the catalog showed it a
/// moment before, but the removal or the archive has since deleted every line of it and takes no
/// new one.
public struct VariantOffSale: Error, Equatable, Sendable {
    public init() {}
}
