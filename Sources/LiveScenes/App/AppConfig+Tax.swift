import Domain

extension AppConfig {
    /// The shop's tax settings: `PRICES_INCLUDE_TAX` (`true`, the default, as Japanese shops show
    /// prices, or `false`), `TAX_ROUNDING` (`floor`, the default, `half_up` or `ceiling`), and the
    /// issuer its invoices name (`INVOICE_ISSUER_NAME`, `INVOICE_REGISTRATION_NUMBER`: both or neither).
    /// Appends one line to `problems` for each bad value.
    mutating func readTax(_ environment: [String: String], problems: inout [String]) {
        let includesTax = environment.bool("PRICES_INCLUDE_TAX", problems: &problems) ?? taxPolicy.pricesIncludeTax
        var rounding = taxPolicy.rounding
        if let text = environment["TAX_ROUNDING"] {
            if let value = TaxRounding(rawValue: text) {
                rounding = value
            } else {
                let names = TaxRounding.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append("TAX_ROUNDING: must be one of \(names), got '\(text)'")
            }
        }
        taxPolicy = TaxPolicy(pricesIncludeTax: includesTax, rounding: rounding)
        let name = environment["INVOICE_ISSUER_NAME"] ?? ""
        let number = environment["INVOICE_REGISTRATION_NUMBER"] ?? ""
        guard !name.isEmpty || !number.isEmpty else { return }
        if let issuer = InvoiceIssuer(name: name, registrationNumber: number) {
            invoiceIssuer = issuer
        } else {
            problems.append(
                "INVOICE_ISSUER_NAME, INVOICE_REGISTRATION_NUMBER: set both (the shop's name, and T followed by 13 digits) or neither")
        }
    }
}
