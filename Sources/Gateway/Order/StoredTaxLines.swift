import Domain
import Foundation
import Postgres

/// An order's tax lines as `orders.tax_lines` keeps them: `[{"tax_class","rate_percent",
/// "taxable","tax"}]`, amounts in minor units of the order's currency.
enum StoredTaxLines {
    private struct Stored: Encodable {
        let taxClass: String
        let ratePercent: Int
        let taxable: Int64
        let tax: Int64

        enum CodingKeys: String, CodingKey {
            case taxClass = "tax_class"
            case ratePercent = "rate_percent"
            case taxable, tax
        }
    }

    /// - Throws: `EncodingError` (never, for these plain values).
    static func json(_ lines: [TaxLine]) throws -> String {
        let stored = lines.map {
            Stored(taxClass: $0.taxClass.rawValue, ratePercent: $0.ratePercent, taxable: $0.taxable.amount, tax: $0.tax.amount)
        }
        return String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
    }

    /// - Throws: `PostgresError.decoding` when the column holds anything else.
    static func lines(_ json: String, currency: Currency) throws -> [TaxLine] {
        let invalid = PostgresError.decoding(column: "tax_lines", swiftType: "[TaxLine]", postgresType: "jsonb")
        guard let stored = JSONValue.parse(json)?.array else { throw invalid }
        return try stored.map { element in
            guard let line = element.object, let name = line["tax_class"]?.string,
                let ratePercent = line["rate_percent"]?.int64.flatMap({ Int(exactly: $0) }),
                let taxable = line["taxable"]?.int64, let tax = line["tax"]?.int64
            else { throw invalid }
            guard let taxClass = TaxClass(rawValue: name) else {
                throw PostgresError.decoding(column: "tax_lines", swiftType: "TaxClass", postgresType: "text '\(name)'")
            }
            return TaxLine(
                taxClass: taxClass, ratePercent: ratePercent, taxable: Money(amount: taxable, currency: currency),
                tax: Money(amount: tax, currency: currency))
        }
    }
}
