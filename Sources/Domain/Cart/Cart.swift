import Foundation

/// One item in a cart at the item's current price.
public struct CartLine: Hashable, Sendable {
    public let itemID: UUID
    public let name: String
    public let unitPrice: Money
    public let quantity: Int

    public init(itemID: UUID, name: String, unitPrice: Money, quantity: Int) {
        self.itemID = itemID
        self.name = name
        self.unitPrice = unitPrice
        self.quantity = quantity
    }

    /// - Throws: `MoneyError.overflow` (impossible within `CartRules` and `ItemRules` limits).
    public func lineTotal() throws(MoneyError) -> Money { try unitPrice.multiplied(by: quantity) }
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

    /// Exact integer sum of the totals of the lines that can be bought.
    /// - Throws: `MoneyError.overflow` (impossible within `CartRules` and `ItemRules` limits).
    public func subtotal() throws(MoneyError) -> Money {
        var total = Money(amount: 0, currency: currency)
        for line in lines where line.unitPrice.currency == currency { total = try total.adding(try line.lineTotal()) }
        return total
    }

    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
}

public enum CartRules {
    public static let maxQuantity = 99
}

/// What can go wrong with a cart besides invalid input.
public enum CartError: Error, Equatable, Sendable {
    case itemNotFound(UUID)
    /// More than the stock was asked for; `available` is what there is.
    case insufficientStock(itemID: UUID, available: Int)
    /// The item is priced in another currency than the cart's (the shop's).
    case currencyMismatch(cart: Currency, item: Currency)
}
