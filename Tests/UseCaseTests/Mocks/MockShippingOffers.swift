import Domain
import Synchronization

/// Shipping offers fixed by the test, by country; records each country asked for.
final class MockShippingOffers: ShippingOffers, Sendable {
    let byCountry: [String: [ShippingOffer]]
    private let asked = Mutex<[String]>([])

    init(_ byCountry: [String: [ShippingOffer]] = [:]) { self.byCountry = byCountry }

    var countries: [String] { asked.withLock { $0 } }

    func offers(shippingTo country: String) async throws -> [ShippingOffer] {
        asked.withLock { $0.append(country) }
        return byCountry[country] ?? []
    }
}
