import Domain

extension AppConfig {
    /// The shop's tax settings: `PRICES_INCLUDE_TAX` (`true`, the default, as Japanese shops show
    /// prices, or `false`) and `TAX_ROUNDING` (`floor`, the default, `half_up` or `ceiling`).
    /// Appends one line to `problems` for each bad value.
    mutating func readTax(_ environment: [String: String], problems: inout [String]) {
        var includesTax = taxPolicy.pricesIncludeTax
        var rounding = taxPolicy.rounding
        if let text = environment["PRICES_INCLUDE_TAX"] {
            if let value = Bool(text) {
                includesTax = value
            } else {
                problems.append("PRICES_INCLUDE_TAX: must be true or false, got '\(text)'")
            }
        }
        if let text = environment["TAX_ROUNDING"] {
            if let value = TaxRounding(rawValue: text) {
                rounding = value
            } else {
                let names = TaxRounding.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append("TAX_ROUNDING: must be one of \(names), got '\(text)'")
            }
        }
        taxPolicy = TaxPolicy(pricesIncludeTax: includesTax, rounding: rounding)
    }
}
