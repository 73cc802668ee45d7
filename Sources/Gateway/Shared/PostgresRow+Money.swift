import Domain
import Postgres

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
}
