import Domain
import Foundation
import Postgres

/// An order's tax lines as `orders.tax_lines` keeps them: `[{"tax_class","rate_percent",
/// "taxable","tax"}]`, amounts in minor units of the order's currency.
enum StoredTaxLines {
    private struct Stored: Codable {
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
        guard let stored = try? JSONDecoder().decode([Stored].self, from: Data(json.utf8)) else {
            throw PostgresError.decoding(column: "tax_lines", swiftType: "[TaxLine]", postgresType: "jsonb")
        }
        return try stored.map { line in
            guard let taxClass = TaxClass(rawValue: line.taxClass) else {
                throw PostgresError.decoding(column: "tax_lines", swiftType: "TaxClass", postgresType: "text '\(line.taxClass)'")
            }
            return TaxLine(
                taxClass: taxClass, ratePercent: line.ratePercent, taxable: Money(amount: line.taxable, currency: currency),
                tax: Money(amount: line.tax, currency: currency))
        }
    }
}
