import Domain
import Foundation
import Postgres

/// An order's shipping as `orders.shipping` keeps it (Migrations/0021_order_shipping.sql).
enum StoredShipping {
    private struct Stored: Encodable {
        struct Address: Encodable {
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
        guard let stored = JSONValue.parse(json)?.object, let address = stored["address"]?.object,
            let methodID = stored["method_id"]?.string.flatMap(UUID.init(text:)), let methodName = stored["method_name"]?.string,
            let carrier = stored["carrier"]?.string, let recipient = address["recipient"]?.string, let phone = address["phone"]?.string,
            let postalCode = address["postal_code"]?.string, let country = address["country"]?.string,
            let city = address["city"]?.string, let line1 = address["line1"]?.string,
            let region = optionalString(address["region"]), let line2 = optionalString(address["line2"])
        else { throw PostgresError.decoding(column: "shipping", swiftType: "OrderShipping", postgresType: "jsonb") }
        return OrderShipping(
            address: ShippingAddress(
                recipient: recipient, phone: phone, postalCode: postalCode, country: country, region: region, city: city,
                line1: line1, line2: line2),
            methodID: methodID, methodName: methodName, carrier: carrier)
    }

    /// A member that may be absent or null (`.some(nil)`), or a string; `nil` for anything else.
    private static func optionalString(_ value: JSONValue?) -> String?? {
        guard let value, !value.isNull else { return .some(nil) }
        return value.string.map { .some($0) }
    }
}
