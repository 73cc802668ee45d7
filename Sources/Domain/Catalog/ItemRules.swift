/// The catalog's rules for item fields, shared by create and update so both say the same thing.
public enum ItemRules {
    public static let skuMaxLength = 64
    public static let nameMaxLength = 200
    public static let descriptionMaxLength = 5000
    public static let categoryMaxLength = 100
    public static let maxStock = 1_000_000_000
    /// A price above this is surely a mistake, and it keeps line totals far from Int64 overflow.
    public static let maxPriceAmount: Int64 = 1_000_000_000_000

    static func checkSKU(_ sku: String, into errors: inout FieldErrors) {
        errors.require(!sku.isEmpty && sku.storedLength <= skuMaxLength, "sku", "must be 1 to \(skuMaxLength) characters")
        errors.require(
            sku.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            },
            "sku", "may hold only ASCII letters, digits, '-' and '_'")
    }

    static func checkText(_ value: String, field: String, max: Int, into errors: inout FieldErrors, allowEmpty: Bool = false) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if !allowEmpty { errors.require(!trimmed.isEmpty, field, "must not be blank") }
        errors.require(value.storedLength <= max, field, "must be at most \(max) characters")
    }

    static func checkPrice(_ amount: Int64, into errors: inout FieldErrors) {
        errors.require((0...maxPriceAmount).contains(amount), "price.amount", "must be between 0 and \(maxPriceAmount) minor units")
    }

    static func currency(_ code: String, into errors: inout FieldErrors) -> Currency? {
        let currency = Currency(code)
        errors.require(currency != nil, "price.currency", "must be an ISO 4217 code of three uppercase letters")
        return currency
    }

    static func checkStock(_ stock: Int, into errors: inout FieldErrors) {
        errors.require((0...maxStock).contains(stock), "stock", "must be between 0 and \(maxStock)")
    }
}

extension ItemDraft {
    /// The draft as a valid new item's fields.
    /// - Throws: `ValidationError` listing every field that breaks `ItemRules`.
    public func validated() throws(ValidationError) -> (draft: ItemDraft, price: Money) {
        var errors = FieldErrors()
        ItemRules.checkSKU(sku, into: &errors)
        ItemRules.checkText(name, field: "name", max: ItemRules.nameMaxLength, into: &errors)
        ItemRules.checkText(description, field: "description", max: ItemRules.descriptionMaxLength, into: &errors, allowEmpty: true)
        ItemRules.checkText(category, field: "category", max: ItemRules.categoryMaxLength, into: &errors)
        ItemRules.checkPrice(priceAmount, into: &errors)
        let currency = ItemRules.currency(self.currency, into: &errors)
        ItemRules.checkStock(stock, into: &errors)
        try errors.throwIfAny()
        return (self, Money(amount: priceAmount, currency: currency!))
    }
}

extension ItemChanges {
    /// Checks the fields that change.
    /// - Throws: `ValidationError` listing every changed field that breaks `ItemRules`, or the
    ///   whole body when it changes nothing.
    public func validate() throws(ValidationError) {
        var errors = FieldErrors()
        errors.require(!isEmpty, "body", "must change at least one of name, description, category, price, stock")
        if let name { ItemRules.checkText(name, field: "name", max: ItemRules.nameMaxLength, into: &errors) }
        if let description {
            ItemRules.checkText(description, field: "description", max: ItemRules.descriptionMaxLength, into: &errors, allowEmpty: true)
        }
        if let category { ItemRules.checkText(category, field: "category", max: ItemRules.categoryMaxLength, into: &errors) }
        if let priceAmount { ItemRules.checkPrice(priceAmount, into: &errors) }
        if let currency { _ = ItemRules.currency(currency, into: &errors) }
        if let stock { ItemRules.checkStock(stock, into: &errors) }
        try errors.throwIfAny()
    }
}
