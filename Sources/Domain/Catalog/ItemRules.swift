/// The catalog's rules its spec cannot state (lengths and bounds the generated input checks):
/// which characters a SKU holds, and that a name or category is more than spaces.
public enum ItemRules {
    /// The most a variant holds in stock (its spec's bound on a new variant's stock): staff
    /// adjustments stop there, so units coming back from orders never overflow the column.
    public static let maxStock = 1_000_000_000

    /// ASCII letters, digits, `-` and `_`: a SKU goes on labels and into URLs as it is.
    public static func checkSKU(_ sku: String, field: String = "sku", into errors: inout FieldErrors) {
        errors.require(
            sku.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            },
            field, "may hold only ASCII letters, digits, '-' and '_'")
    }

    /// A text a shopper reads must say something: not only spaces and line breaks.
    public static func checkNotBlank(_ value: String?, field: String, into errors: inout FieldErrors) {
        guard let value else { return }
        errors.require(!value.allSatisfy(\.isWhitespace), field, "must not be blank")
    }
}
