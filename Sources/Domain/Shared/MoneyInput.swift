/// A money amount as a client sends it, before the currency code is checked.
public struct MoneyInput: Hashable, Sendable {
    public var amount: Int64
    public var currency: String

    public init(amount: Int64, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

/// A change of a money value as a client sends it (`{"amount": 1500}` keeps the currency),
/// before the currency code is checked; at least one of the two is set once checked.
public struct MoneyChangeInput: Hashable, Sendable {
    public var amount: Int64?
    public var currency: String?

    public init(amount: Int64? = nil, currency: String? = nil) {
        self.amount = amount
        self.currency = currency
    }
}

/// A checked change of a money value: a new amount, a new currency, or both.
public struct MoneyChange: Hashable, Sendable {
    public let amount: Int64?
    public let currency: Currency?

    public init(amount: Int64?, currency: Currency?) {
        self.amount = amount
        self.currency = currency
    }
}
