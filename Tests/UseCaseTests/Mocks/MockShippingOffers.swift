import Domain

/// Shipping offers fixed by the test, by country.
final class MockShippingOffers: ShippingOffers, Sendable {
    let byCountry: [String: [ShippingOffer]]

    init(_ byCountry: [String: [ShippingOffer]] = [:]) { self.byCountry = byCountry }

    func offers(shippingTo country: String) async throws -> [ShippingOffer] {
        byCountry[country] ?? []
    }
}
