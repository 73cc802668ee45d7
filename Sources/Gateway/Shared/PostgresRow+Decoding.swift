import Domain
import Postgres

/// Decoders of the domain's values from rows: money, currencies and enums, as every store
/// stores them.
extension PostgresRow {
    /// A text column holding an ISO 4217 code.
    /// - Throws: `PostgresError.decoding` when the stored text is not a currency code.
    func currency(_ column: String) throws -> Currency {
        let code: String = try decode(column)
        guard let currency = Currency(code) else {
            throw PostgresError.decoding(column: column, swiftType: "Currency", postgresType: "text '\(code)'")
        }
        return currency
    }

    /// Money stored as `<amountColumn>` (bigint minor units) and `<currencyColumn>`.
    /// - Throws: `PostgresError.decoding`.
    func money(amount amountColumn: String, currency currencyColumn: String) throws -> Money {
        Money(amount: try decode(amountColumn), currency: try currency(currencyColumn))
    }

    /// Money stored in two nullable columns; `nil` when both are NULL.
    /// - Throws: `PostgresError.decoding`.
    func optionalMoney(amount amountColumn: String, currency currencyColumn: String) throws -> Money? {
        let amount: Int64? = try decode(amountColumn)
        guard let amount else { return nil }
        return Money(amount: amount, currency: try currency(currencyColumn))
    }

    /// A text column holding one of an enum's raw values.
    /// - Throws: `PostgresError.decoding` for any other text.
    func enumeration<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T where T.RawValue == String {
        let raw: String = try decode(column)
        guard let value = T(rawValue: raw) else {
            throw PostgresError.decoding(column: column, swiftType: "\(T.self)", postgresType: "text '\(raw)'")
        }
        return value
    }

    /// A nullable text column holding one of an enum's raw values.
    /// - Throws: `PostgresError.decoding`.
    func optionalEnumeration<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T? where T.RawValue == String {
        let raw: String? = try decode(column)
        guard raw != nil else { return nil }
        return try enumeration(column, as: type)
    }
}
