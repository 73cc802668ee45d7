import Foundation

/// A shipping method with its rates in one country: what it would charge to ship there.
public struct ShippingOffer: Hashable, Sendable {
    public let method: ShippingMethod
    public let rates: [ShippingRate]

    public init(method: ShippingMethod, rates: [ShippingRate]) {
        self.method = method
        self.rates = rates
    }

    /// The rate that applies to `address`: among those of its country whose region and postal
    /// prefix (when they have one) it matches, the most specific: the longest prefix, then one
    /// with a region; `nil` when none applies (the method does not ship there).
    public func rate(for address: Address) -> ShippingRate? {
        let applying = rates.filter { rate in
            rate.country == address.country && (rate.region == nil || rate.region == address.region)
                && (rate.postalCodePrefix.map { address.postalCode.hasPrefix($0) } ?? true)
        }
        return applying.max { Self.specificity($0) < Self.specificity($1) }
    }

    /// What the method offers for `address` and a cart of `subtotal`: the applying rate's fee, or none
    /// from the method's `free_over` on where the rate lets it; `nil` when the method does not
    /// ship there or charges in another currency than the cart's.
    public func quote(for address: Address, subtotal: Money) -> ShippingQuote? {
        guard method.active, let rate = rate(for: address), rate.fee.currency == subtotal.currency else { return nil }
        let free =
            rate.freeShippingApplies && method.freeOver.map { $0.currency == subtotal.currency && subtotal.amount >= $0.amount } == true
        return ShippingQuote(
            methodID: method.id, name: method.name, carrier: method.carrier,
            fee: free ? Money(amount: 0, currency: subtotal.currency) : rate.fee, free: free)
    }

    /// (prefix length, 1 with a region): compared as a pair, a prefix of any length beats a
    /// region, which beats the country alone.
    static func specificity(_ rate: ShippingRate) -> (prefix: Int, region: Int) {
        (rate.postalCodePrefix?.count ?? 0, rate.region == nil ? 0 : 1)
    }
}

/// A way an order can be shipped to an address, with its fee there.
public struct ShippingQuote: Hashable, Sendable {
    public let methodID: UUID
    public let name: String
    public let carrier: String
    public let fee: Money
    /// Free from the method's `free_over` on.
    public let free: Bool

    public init(methodID: UUID, name: String, carrier: String, fee: Money, free: Bool) {
        self.methodID = methodID
        self.name = name
        self.carrier = carrier
        self.fee = fee
        self.free = free
    }
}

/// A way the cart can be shipped, as its answer shows it: the quote, and what the checkout would
/// charge with it (the goods, the fee and their tax, `OrderTotals`).
public struct ShippingOption: Hashable, Sendable {
    public let methodID: UUID
    public let name: String
    public let carrier: String
    public let fee: Money
    public let free: Bool
    public let total: Money

    public init(_ quote: ShippingQuote, total: Money) {
        methodID = quote.methodID
        name = quote.name
        carrier = quote.carrier
        fee = quote.fee
        free = quote.free
        self.total = total
    }
}

/// Where an order ships and how, as it was at checkout: changing the address book or the
/// shipping methods later changes no order.
public struct OrderShipping: Hashable, Sendable {
    public let address: ShippingAddress
    public let methodID: UUID
    public let methodName: String
    public let carrier: String

    public init(address: ShippingAddress, methodID: UUID, methodName: String, carrier: String) {
        self.address = address
        self.methodID = methodID
        self.methodName = methodName
        self.carrier = carrier
    }
}

/// An address as an order keeps it.
public struct ShippingAddress: Hashable, Sendable {
    public let recipient: String
    public let phone: String
    public let postalCode: String
    public let country: String
    public let region: String?
    public let city: String
    public let line1: String
    public let line2: String?

    public init(
        recipient: String, phone: String, postalCode: String, country: String, region: String?, city: String, line1: String,
        line2: String?
    ) {
        self.recipient = recipient
        self.phone = phone
        self.postalCode = postalCode
        self.country = country
        self.region = region
        self.city = city
        self.line1 = line1
        self.line2 = line2
    }

    public init(_ address: Address) {
        self.init(
            recipient: address.recipient, phone: address.phone, postalCode: address.postalCode, country: address.country,
            region: address.region, city: address.city, line1: address.line1, line2: address.line2)
    }
}

/// The shipping methods on offer: the active ones with their rates in a country.
public protocol ShippingOffers: Sendable {
    /// - Throws: `StoreUnavailable`.
    func offers(shippingTo country: String) async throws -> [ShippingOffer]
}
