/// An amount of money in integer minor units (yen, cents) of one currency. There is no floating
/// point anywhere near a price: arithmetic is exact and refuses to overflow or mix currencies.
public struct Money: Hashable, Sendable {
    public let amount: Int64
    public let currency: Currency

    public init(amount: Int64, currency: Currency) {
        self.amount = amount
        self.currency = currency
    }

    /// - Throws: `MoneyError.currencyMismatch` or `.overflow`.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
        let (sum, overflow) = amount.addingReportingOverflow(other.amount)
        guard !overflow else { throw .overflow }
        return Money(amount: sum, currency: currency)
    }

    /// - Throws: `MoneyError.overflow`.
    public func multiplied(by factor: Int) throws(MoneyError) -> Money {
        let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(factor))
        guard !overflow else { throw .overflow }
        return Money(amount: product, currency: currency)
    }
}

public enum MoneyError: Error, Equatable, Sendable {
    case currencyMismatch(Currency, Currency)
    case overflow
}

/// An ISO 4217 code: three uppercase ASCII letters.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    public let code: String

    /// `nil` unless `code` is three uppercase ASCII letters.
    public init?(_ code: String) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (65...90).contains($0) }) else { return nil }
        self.code = code
    }

    public var description: String { code }

    /// The digits of its minor unit (ISO 4217): 0 for the yen, 3 for the Bahraini dinar, 2 for
    /// most. An amount of this currency is `amount / 10^minorUnits` of its major unit.
    public var minorUnits: Int {
        switch code {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF": 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": 3
        case "CLF", "UYW": 4
        default: 2
        }
    }
}

extension FieldErrors {
    /// A price or fee the shop stores is in its own currency (`SHOP_CURRENCY`): carts and orders
    /// are priced in it, so one in another could be shown but never charged. The one check of
    /// it, for the catalog's prices and every generated `currency: shop` field.
    /// - Returns: whether `currency` is the shop's (or none was given).
    @discardableResult
    public mutating func requireShopCurrency(_ currency: Currency?, shop: Currency, at field: String) -> Bool {
        let shops = currency.map { $0 == shop } ?? true
        require(shops, field, "must be the shop's currency (\(shop.code))")
        return shops
    }
}
