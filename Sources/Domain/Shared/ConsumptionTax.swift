/// The tax rate class of an item: Japan's consumption tax has a standard rate (10 %) and a
/// reduced one (8 %) for food and beverages other than alcohol and eating in, and newspapers.
public enum TaxClass: String, CaseIterable, Hashable, Sendable {
    case standard
    case reduced

    /// The rate, in percent.
    public var ratePercent: Int { self == .standard ? 10 : 8 }
}

/// How a fraction of a yen of tax is settled: a shop setting (`TAX_ROUNDING`). Japanese shops
/// most often drop it (floor), which is the default.
public enum TaxRounding: String, CaseIterable, Hashable, Sendable {
    case floor
    case halfUp = "half_up"
    case ceiling

    /// `numerator / denominator` rounded this way; both are non-negative, `denominator` positive.
    func divide(_ numerator: Int64, by denominator: Int64) -> Int64 {
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        switch self {
        case .floor: return quotient
        case .ceiling: return remainder > 0 ? quotient + 1 : quotient
        case .halfUp: return remainder >= denominator - remainder ? quotient + 1 : quotient
        }
    }
}

/// The shop's tax settings: whether its prices include tax (as Japanese shops show them,
/// `PRICES_INCLUDE_TAX`, the default) and how a fraction of tax is rounded.
public struct TaxPolicy: Hashable, Sendable {
    public let pricesIncludeTax: Bool
    public let rounding: TaxRounding

    public init(pricesIncludeTax: Bool = true, rounding: TaxRounding = .floor) {
        self.pricesIncludeTax = pricesIncludeTax
        self.rounding = rounding
    }

    /// The tax in `amount` charged at `taxClass`'s rate: `amount × r / (100 + r)` when prices
    /// include tax, else `amount × r / 100`, rounded once.
    /// - Throws: `MoneyError.overflow` past what an Int64 holds, or for a negative amount (no
    ///   price or fee is).
    public func tax(in amount: Money, at taxClass: TaxClass) throws(MoneyError) -> Money {
        let rate = Int64(taxClass.ratePercent)
        let (scaled, overflow) = amount.amount.multipliedReportingOverflow(by: rate)
        guard !overflow, amount.amount >= 0 else { throw .overflow }
        let tax = rounding.divide(scaled, by: pricesIncludeTax ? 100 + rate : 100)
        return Money(amount: tax, currency: amount.currency)
    }
}

/// What is charged at one rate in one order, and its tax: one line per rate present.
public struct TaxLine: Hashable, Sendable {
    public let taxClass: TaxClass
    public let ratePercent: Int
    /// The total charged at this rate (tax included when prices include it), shipping included
    /// in the standard rate's.
    public let taxable: Money
    public let tax: Money

    public init(taxClass: TaxClass, ratePercent: Int, taxable: Money, tax: Money) {
        self.taxClass = taxClass
        self.ratePercent = ratePercent
        self.taxable = taxable
        self.tax = tax
    }
}

/// An order's money, computed once at checkout by the qualified-invoice rule: the lines are
/// summed per rate and each rate's sum is taxed and rounded once, never line by line; shipping
/// is taxed at the standard rate. Integer arithmetic only.
public struct OrderTotals: Hashable, Sendable {
    /// The lines' total, as priced (tax included when prices include it).
    public let subtotal: Money
    public let shippingFee: Money
    /// Standard rate first; a rate with nothing charged at it has no line.
    public let taxLines: [TaxLine]
    /// What is paid: subtotal and shipping, plus the tax when prices do not include it.
    public let total: Money

    public init(subtotal: Money, shippingFee: Money, taxLines: [TaxLine], total: Money) {
        self.subtotal = subtotal
        self.shippingFee = shippingFee
        self.taxLines = taxLines
        self.total = total
    }

    /// - Parameter lines: each line's class and total (unit price × quantity), in one currency.
    /// - Throws: `MoneyError.currencyMismatch` when lines or the fee differ in currency,
    ///   `.overflow` past what an Int64 holds.
    public static func compute(
        lines: [(taxClass: TaxClass, total: Money)], shippingFee: Money, policy: TaxPolicy
    ) throws(MoneyError) -> OrderTotals {
        let zero = Money(amount: 0, currency: shippingFee.currency)
        var subtotal = zero
        var byClass: [TaxClass: Money] = [:]
        for line in lines {
            subtotal = try subtotal.adding(line.total)
            byClass[line.taxClass] = try (byClass[line.taxClass] ?? zero).adding(line.total)
        }
        if shippingFee.amount > 0 { byClass[.standard] = try (byClass[.standard] ?? zero).adding(shippingFee) }
        var taxLines: [TaxLine] = []
        var total = try subtotal.adding(shippingFee)
        for taxClass in TaxClass.allCases {
            guard let taxable = byClass[taxClass] else { continue }
            let tax = try policy.tax(in: taxable, at: taxClass)
            taxLines.append(TaxLine(taxClass: taxClass, ratePercent: taxClass.ratePercent, taxable: taxable, tax: tax))
            if !policy.pricesIncludeTax { total = try total.adding(tax) }
        }
        return OrderTotals(subtotal: subtotal, shippingFee: shippingFee, taxLines: taxLines, total: total)
    }
}
