import Domain
import Foundation
import Postgres

/// `ShippingOffers` on PostgreSQL: the active shipping methods with their rates in a country,
/// read in one statement (the tables of Specs/ShippingMethod.yml and Specs/ShippingRate.yml).
public struct PostgresShippingOffers: ShippingOffers {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func offers(shippingTo country: String) async throws -> [ShippingOffer] {
        try await translatingUnavailable { try await Self.offers(shippingTo: country, on: database) }
    }

    /// The offers to `country` (only `method`'s when given), read through `executor`: a
    /// checkout reads them in its own transaction.
    /// - Throws: `PostgresError`.
    static func offers(shippingTo country: String, method: UUID? = nil, on executor: any PostgresExecutor) async throws
        -> [ShippingOffer]
    {
        let rows = try await executor.query(
            """
            SELECT m.id AS method_id, m.name, m.carrier, m.free_over_amount, m.free_over_currency, m.created_at AS method_created_at,
                   r.id AS rate_id, r.region, r.postal_code_prefix, r.fee_amount, r.fee_currency, r.free_shipping_applies,
                   r.created_at AS rate_created_at
            FROM shipping_methods m JOIN shipping_rates r ON r.shipping_method_id = m.id
            WHERE m.active AND r.country = $1 AND ($2::uuid IS NULL OR m.id = $2)
            ORDER BY m.created_at, m.id, r.id
            """, country, method
        ).rows
        var offers: [ShippingOffer] = []
        for row in rows {
            let methodID: UUID = try row.decode("method_id")
            let rate = ShippingRate(
                id: try row.decode("rate_id"), shippingMethodID: methodID, country: country, region: try row.decode("region"),
                postalCodePrefix: try row.decode("postal_code_prefix"), fee: try row.money(amount: "fee_amount", currency: "fee_currency"),
                freeShippingApplies: try row.decode("free_shipping_applies"), createdAt: try row.decode("rate_created_at"))
            if offers.last?.method.id == methodID {
                offers[offers.count - 1] = ShippingOffer(
                    method: offers[offers.count - 1].method, rates: offers[offers.count - 1].rates + [rate])
                continue
            }
            let method = ShippingMethod(
                id: methodID, name: try row.decode("name"), carrier: try row.decode("carrier"),
                freeOver: try row.optionalMoney(amount: "free_over_amount", currency: "free_over_currency"), active: true,
                createdAt: try row.decode("method_created_at"))
            offers.append(ShippingOffer(method: method, rates: [rate]))
        }
        return offers
    }
}
