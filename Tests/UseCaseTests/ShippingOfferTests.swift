import Domain
import Foundation
import PropertyBased
import Testing

/// Which rate of a shipping method applies to an address, and what it charges a cart.
@Suite("Shipping offers")
struct ShippingOfferTests {
    static let yen = Currency("JPY")!
    static func yen(_ amount: Int64) -> Money { Money(amount: amount, currency: yen) }
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func method(freeOver: Int64? = 5000, active: Bool = true) -> ShippingMethod {
        ShippingMethod(
            id: UUID(), name: "Standard", carrier: "Yamato", freeOver: freeOver.map(yen), active: active, createdAt: now)
    }

    static func rate(
        _ country: String = "JP", region: String? = nil, prefix: String? = nil, fee: Money, free: Bool = true
    ) -> ShippingRate {
        ShippingRate(
            id: UUID(), shippingMethodID: UUID(), country: country, region: region, postalCodePrefix: prefix, fee: fee,
            freeShippingApplies: free, createdAt: now)
    }

    static func address(country: String = "JP", region: String? = "JP-13", postalCode: String = "1000001") -> Address {
        Address(
            id: UUID(), customerID: UUID(), recipient: "r", phone: "0312345678", postalCode: postalCode, country: country,
            region: region, city: "c", line1: "l", line2: nil, isDefault: true, createdAt: now)
    }

    /// Japan 800, Okinawa 1500, Ishigaki's postal codes (907) 2500 and never free.
    static let japan = ShippingOffer(
        method: method(),
        rates: [
            rate(fee: yen(800)), rate(region: "JP-47", fee: yen(1500)), rate(region: "JP-47", prefix: "907", fee: yen(2500), free: false),
        ])

    @Test func theMostSpecificRateApplies() {
        #expect(Self.japan.quote(for: Self.address(), subtotal: Self.yen(1000))?.fee == Self.yen(800))
        #expect(
            Self.japan.quote(for: Self.address(region: "JP-47", postalCode: "9000001"), subtotal: Self.yen(1000))?.fee == Self.yen(1500))
        #expect(
            Self.japan.quote(for: Self.address(region: "JP-47", postalCode: "9071234"), subtotal: Self.yen(1000))?.fee == Self.yen(2500))
        // A prefix without a region still beats a region.
        let islands = ShippingOffer(
            method: Self.method(), rates: [Self.rate(region: "JP-47", fee: Self.yen(1500)), Self.rate(prefix: "907", fee: Self.yen(2500))])
        #expect(islands.quote(for: Self.address(region: "JP-47", postalCode: "9071234"), subtotal: Self.yen(1))?.fee == Self.yen(2500))
        // No rate for the country: not offered.
        #expect(Self.japan.quote(for: Self.address(country: "US", region: "CA", postalCode: "94105"), subtotal: Self.yen(1)) == nil)
    }

    @Test func freeFromTheThresholdWhereTheRateLetsIt() {
        let tokyo = Self.address()
        #expect(Self.japan.quote(for: tokyo, subtotal: Self.yen(4999))?.free == false)
        let free = Self.japan.quote(for: tokyo, subtotal: Self.yen(5000))
        #expect(free?.free == true && free?.fee == Self.yen(0))
        let island = Self.japan.quote(for: Self.address(region: "JP-47", postalCode: "9071234"), subtotal: Self.yen(100_000))
        #expect(island?.free == false && island?.fee == Self.yen(2500))
        let never = ShippingOffer(method: Self.method(freeOver: nil), rates: [Self.rate(fee: Self.yen(800))])
        #expect(never.quote(for: tokyo, subtotal: Self.yen(1_000_000))?.fee == Self.yen(800))
    }

    @Test func anInactiveMethodOrAnotherCurrencyIsNotOffered() {
        let inactive = ShippingOffer(method: Self.method(active: false), rates: [Self.rate(fee: Self.yen(800))])
        #expect(inactive.quote(for: Self.address(), subtotal: Self.yen(1)) == nil)
        let dollars = ShippingOffer(method: Self.method(), rates: [Self.rate(fee: Money(amount: 5, currency: Currency("USD")!))])
        #expect(dollars.quote(for: Self.address(), subtotal: Self.yen(1)) == nil)
    }

    /// For random rates and addresses: the chosen rate applies to the address, and no rate that
    /// applies is more specific; none is chosen only when none applies.
    @Test func theChosenRateIsTheMostSpecificThatApplies() async {
        let region = Gen.element(of: [nil, "JP-13", "JP-47"])
        let prefix = Gen.element(of: [nil, "9", "90", "907", "1"])
        let rates = zip(region, prefix, Gen.int64(in: 0...5000)).array(of: 0...6)
        let postal = Gen.element(of: ["9071234", "9000001", "1000001"])
        await propertyCheck(count: 300, input: rates, region, postal) { specs, addressRegion, postalCode in
            let offer = ShippingOffer(
                method: Self.method(), rates: specs.map { Self.rate(region: $0.0 ?? nil, prefix: $0.1 ?? nil, fee: Self.yen($0.2)) })
            let address = Self.address(region: addressRegion ?? nil, postalCode: postalCode ?? "1000001")
            let applies = { (rate: ShippingRate) in
                (rate.region == nil || rate.region == address.region)
                    && (rate.postalCodePrefix.map { address.postalCode.hasPrefix($0) } ?? true)
            }
            guard let chosen = offer.rate(for: address) else {
                #expect(!offer.rates.contains(where: applies))
                return
            }
            #expect(applies(chosen))
            let key = { (rate: ShippingRate) in (rate.postalCodePrefix?.count ?? 0, rate.region == nil ? 0 : 1) }
            #expect(!offer.rates.filter(applies).contains { key($0) > key(chosen) })
        }
    }
}
