import Domain
import Foundation
import Postgres

/// An order's shipping as `orders.shipping` keeps it (Migrations/0021_order_shipping.sql).
enum StoredShipping {
    private struct Stored: Codable {
        struct Address: Codable {
            let recipient: String
            let phone: String
            let postalCode: String
            let country: String
            let region: String?
            let city: String
            let line1: String
            let line2: String?

            enum CodingKeys: String, CodingKey {
                case recipient, phone, country, region, city, line1, line2
                case postalCode = "postal_code"
            }
        }

        let address: Address
        let methodID: UUID
        let methodName: String
        let carrier: String

        enum CodingKeys: String, CodingKey {
            case address, carrier
            case methodID = "method_id"
            case methodName = "method_name"
        }
    }

    /// - Throws: `EncodingError` (never, for these plain values).
    static func json(_ shipping: OrderShipping) throws -> String {
        let address = shipping.address
        let stored = Stored(
            address: Stored.Address(
                recipient: address.recipient, phone: address.phone, postalCode: address.postalCode, country: address.country,
                region: address.region, city: address.city, line1: address.line1, line2: address.line2),
            methodID: shipping.methodID, methodName: shipping.methodName, carrier: shipping.carrier)
        return String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
    }

    /// - Throws: `PostgresError.decoding` when the column holds anything else.
    static func shipping(_ json: String) throws -> OrderShipping {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(json.utf8)) else {
            throw PostgresError.decoding(column: "shipping", swiftType: "OrderShipping", postgresType: "jsonb")
        }
        let address = stored.address
        return OrderShipping(
            address: ShippingAddress(
                recipient: address.recipient, phone: address.phone, postalCode: address.postalCode, country: address.country,
                region: address.region, city: address.city, line1: address.line1, line2: address.line2),
            methodID: stored.methodID, methodName: stored.methodName, carrier: stored.carrier)
    }
}
