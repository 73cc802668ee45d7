/// The rules the spec sets on each field, and the checks of the draft and the changes that
/// apply them.
extension DomainRenderer {
    /// The check of one input value, as an expression of the field's value type (optional when
    /// the field has a rule that can fail).
    static func hasRule(_ field: SwiftField) -> Bool {
        switch field.field.type {
        // An int is a PostgreSQL integer: it always has bounds, its column's when the spec sets none.
        case .int: return true
        case .string, .text, .bigint: return field.field.min != nil || field.field.max != nil
        case .money, .enumeration: return true
        case .uuid, .bool, .timestamp, .number: return false
        }
    }

    /// The entity's rules (when it is created or updated) and the checks of its draft and changes.
    static func rules(_ names: SceneNames, into out: inout CodeWriter) {
        guard names.drafts || names.updates else { return }
        let checked = names.writable.filter(hasRule)
        if !checked.isEmpty {
            out.blank()
            out.doc("The spec's rules for each field, shared by create and update so both say the same thing.")
            out.block("enum \(names.entity)Rules") { out in rules(of: checked, into: &out) }
        }
        if names.drafts { validateDraft(names, into: &out) }
        if names.updates { validateChanges(names, into: &out) }
    }

    /// The rule of each field, a blank line between.
    static func rules(of fields: [SwiftField], into out: inout CodeWriter) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.blank() }
            rule(field, into: &out)
        }
    }

    /// The check of one value; `element: true` checks one element of a list, named by the
    /// `place` it is given (`values[2]`).
    private static func rule(_ field: SwiftField, element: Bool = false, into out: inout CodeWriter) {
        let f = field.field
        let name = f.name
        // The field's name in each error: a literal, or the element's place.
        func named(_ suffix: String = "") -> String {
            element ? (suffix.isEmpty ? "place" : "place + \"\(suffix)\"") : "\"\(name)\(suffix)\""
        }
        let shop = f.shopCurrency ? ", shopCurrency: Currency" : ""
        let signature =
            element
            ? "static func \(field.bareProperty)Element(_ value: \(field.inputType), at place: String, into errors: inout FieldErrors) -> \(field.valueType)?"
            : "static func \(field.bareProperty)(_ value: \(field.inputType)\(shop), into errors: inout FieldErrors) -> \(field.valueType)?"
        out.block(signature) {
            out in
            switch f.type {
            case .string, .text:
                // Counted in Unicode scalars, as PostgreSQL's char_length counts, so the CHECK agrees.
                out.line("let length = value.storedLength")
                out.line("let valid = " + bounds("length", f.min, f.max))
                out.line("errors.require(valid, \(named()), \"must be \(describe(f.min, f.max, unit: " characters"))\")")
                out.line("return valid ? value : nil")
            case .int, .bigint:
                let (min, max) = f.type == .int ? (f.min ?? Int64(Int32.min), f.max ?? Int64(Int32.max)) : (f.min, f.max)
                out.line("let valid = " + bounds("value", min, max))
                out.line("errors.require(valid, \(named()), \"must be \(describe(min, max, unit: ""))\")")
                out.line("return valid ? value : nil")
            case .money where f.partial:
                let min = f.min ?? 0
                out.line("let validAmount = value.amount.map { " + bounds("$0", min, f.max) + " } ?? true")
                out.line("errors.require(validAmount, \(named(".amount")), \"must be \(describe(min, f.max, unit: " minor units"))\")")
                out.line("let currency = value.currency.map(Currency.init)")
                out.line(
                    "errors.require(currency != .some(nil), \(named(".currency")), \"must be an ISO 4217 code of three uppercase letters\")"
                )
                out.line("errors.require(value.amount != nil || value.currency != nil, \(named()), \"must set amount, currency or both\")")
                out.line("guard validAmount, currency != .some(nil), value.amount != nil || value.currency != nil else { return nil }")
                out.line("return MoneyChange(amount: value.amount, currency: currency ?? nil)")
            case .money:
                let min = f.min ?? 0
                out.line("let validAmount = " + bounds("value.amount", min, f.max))
                out.line("errors.require(validAmount, \(named(".amount")), \"must be \(describe(min, f.max, unit: " minor units"))\")")
                out.line("let currency = Currency(value.currency)")
                out.line("errors.require(currency != nil, \(named(".currency")), \"must be an ISO 4217 code of three uppercase letters\")")
                if f.shopCurrency {
                    out.line("let shops = errors.requireShopCurrency(currency, shop: shopCurrency, at: \(named(".currency")))")
                    out.line("guard validAmount, shops, let currency else { return nil }")
                } else {
                    out.line("guard validAmount, let currency else { return nil }")
                }
                out.line("return Money(amount: value.amount, currency: currency)")
            case .enumeration(let values):
                out.line("let valid = \(field.enumType)(rawValue: value)")
                out.line("errors.require(valid != nil, \(named()), \"must be one of \(values.joined(separator: ", "))\")")
                out.line("return valid")
            case .uuid, .bool, .timestamp, .number:
                break
            }
        }
    }

    /// The rules of an input's fields (`hasInputRule`), a blank line between.
    static func inputRules(of fields: [TypedField], into out: inout CodeWriter) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.blank() }
            if field.spec.list || field.spec.map { listRule(field, into: &out) } else { rule(field.swift, into: &out) }
        }
    }

    /// The rule of a list (or a map) of an input: its size, then each element by the field's
    /// rules, each error named by the element's place (`values[2]`, `option.size`).
    static func listRule(_ field: TypedField, into out: inout CodeWriter) {
        let swift = field.swift
        let name = field.name
        let elementRule = hasRule(swift)
        if elementRule {
            rule(swift, element: true, into: &out)
            out.blank()
        }
        out.block(
            "static func \(swift.bareProperty)(_ value: \(field.uncheckedType), into errors: inout FieldErrors) -> \(field.inputValueType.replacingOccurrences(of: "?", with: ""))?"
        ) {
            out in
            let valid = sizeRule(field.spec.minItems, field.spec.maxItems, "\"\(name)\"", into: &out)
            guard elementRule else {
                out.line("return \(valid.isEmpty ? "value" : "\(valid.joined(separator: " && ")) ? value : nil")")
                return
            }
            if field.spec.map {
                out.line("var checked: [String: \(field.valueType)] = [:]")
                out.block("for (key, element) in value.sorted(by: { $0.key < $1.key })") { out in
                    out.line(
                        "if let valid = \(swift.bareProperty)Element(element, at: \"\(name).\\(key)\", into: &errors) { checked[key] = valid }"
                    )
                }
            } else {
                out.line("var checked: [\(field.valueType)] = []")
                out.block("for (index, element) in value.enumerated()") { out in
                    out.line(
                        "if let valid = \(swift.bareProperty)Element(element, at: \"\(name)[\\(index)]\", into: &errors) { checked.append(valid) }"
                    )
                }
            }
            out.line("return " + (valid + ["checked.count == value.count"]).joined(separator: " && ") + " ? checked : nil")
        }
    }

    /// The size bounds of a list, `min_items` and `max_items`, as checks of `value.count` that
    /// add their errors under `name` (a Swift string literal).
    /// - Returns: the names of the booleans that hold when the size is within them.
    static func sizeRule(_ min: Int?, _ max: Int?, _ name: String, into out: inout CodeWriter) -> [String] {
        var valid: [String] = []
        if let min {
            out.line("let enough = value.count >= \(min)")
            out.line("errors.require(enough, \(name), \"must have at least \(min) \(min == 1 ? "entry" : "entries")\")")
            valid.append("enough")
        }
        if let max {
            out.line("let short = value.count <= \(max)")
            out.line("errors.require(short, \(name), \"must have at most \(max) entries\")")
            valid.append("short")
        }
        return valid
    }

    private static func bounds(_ expression: String, _ min: Int64?, _ max: Int64?) -> String {
        switch (min, max) {
        case (let min?, let max?): return "(\(min)...\(max)).contains(\(expression))"
        case (let min?, nil): return "\(expression) >= \(min)"
        case (nil, let max?): return "\(expression) <= \(max)"
        case (nil, nil): return "true"
        }
    }

    private static func describe(_ min: Int64?, _ max: Int64?, unit: String) -> String {
        switch (min, max) {
        case (let min?, let max?) where min == max: return "exactly \(min)\(unit)"
        case (let min?, let max?): return "\(min) to \(max)\(unit)"
        case (let min?, nil): return "at least \(min)\(unit)"
        case (nil, let max?): return "at most \(max)\(unit)"
        case (nil, nil): return "valid"
        }
    }

    /// The draft checked and completed into a new entity.
    private static func validateDraft(_ names: SceneNames, into out: inout CodeWriter) {
        let needsNow = names.fields.contains { $0.field.defaultValue == .now }
        var parameters = ["id: UUID"]
        if names.owned { parameters.append("customerID: UUID") }
        if let parent = names.parent { parameters.append("\(parent.bareProperty): UUID") }
        if needsNow { parameters.append("now: Date") }
        if names.checksShopCurrency { parameters.append("shopCurrency: Currency") }
        let checked = names.writable.filter(hasRule)
        var arguments: [String] = []
        for field in names.fields {
            arguments.append("\(field.bareProperty): " + draftValue(field, names: names))
            if field.field.primary && names.owned { arguments.append("customerID: customerID") }
        }
        out.blank()
        out.block("extension \(names.draft)") { out in
            out.doc(
                "The draft as a new \(names.entity), with its defaults filled in\(names.spec.record.rules ? ", then checked by the rules across\nits fields (`checkingRules`)" : "").\n- Throws: `ValidationError` listing every field that breaks the spec's rules."
            )
            out.block("public func validated(\(parameters.joined(separator: ", "))) throws(ValidationError) -> \(names.entity)") { out in
                if !checked.isEmpty { out.line("var errors = FieldErrors()") }
                for field in checked {
                    let input = inputExpression(field)
                    let check = "\(names.entity)Rules.\(field.bareProperty)($0\(shopArgument(field)), into: &errors)"
                    if field.field.optional && field.field.defaultValue == nil {
                        out.line("let \(field.bareProperty) = \(input).flatMap { \(check) }")
                    } else {
                        out.line(
                            "let \(field.bareProperty) = \(names.entity)Rules.\(field.bareProperty)(\(input)\(shopArgument(field)), into: &errors)"
                        )
                    }
                }
                if !checked.isEmpty { out.line("try errors.throwIfAny()") }
                if names.spec.record.rules {
                    out.list("let record = \(names.entity)(", arguments)
                    out.line("return try record.checkingRules()")
                } else {
                    out.list("return \(names.entity)(", arguments)
                }
            }
        }
    }

    /// The shop's currency passed on to the rule of a field that must be in it (`currency: shop`).
    private static func shopArgument(_ field: SwiftField) -> String {
        field.field.shopCurrency ? ", shopCurrency: shopCurrency" : ""
    }

    /// The draft's input for `field` with its default applied, as the input type.
    private static func inputExpression(_ field: SwiftField) -> String {
        let property = "self.\(field.bareProperty)"
        guard let defaultValue = field.field.defaultValue else { return property }
        switch defaultValue {
        case .string(let value): return "\(property) ?? \(swiftString(value))"
        default: return "\(property) ?? \(field.defaultLiteral!)"
        }
    }

    /// The expression giving the new entity's `field`.
    private static func draftValue(_ field: SwiftField, names: SceneNames) -> String {
        if field.field.primary { return "id" }
        if field.name == names.parent?.name { return field.bareProperty }
        if !field.writable {
            return field.defaultLiteral ?? "nil"
        }
        if hasRule(field) {
            return field.bareProperty + (field.field.optional && field.field.defaultValue == nil ? "" : "!")
        }
        return inputExpression(field)
    }

    private static func validateChanges(_ names: SceneNames, into out: inout CodeWriter) {
        let writable = names.writable
        let list = writable.map(\.name).joined(separator: ", ")
        out.blank()
        out.block("extension \(names.changes)") { out in
            out.doc(
                "The changes, checked and typed.\n- Throws: `ValidationError` listing every changed field that breaks the spec's rules, or\n  the whole body when it changes nothing."
            )
            let parameters = names.checksShopCurrency ? "shopCurrency: Currency" : ""
            out.block("public func validated(\(parameters)) throws(ValidationError) -> \(names.patch)") { out in
                out.line("var errors = FieldErrors()")
                out.line("errors.require(!isEmpty, \"body\", \"must change at least one of \(list)\")")
                for field in writable where hasRule(field) {
                    out.line(
                        "let \(field.bareProperty) = self.\(field.bareProperty).flatMap { \(names.entity)Rules.\(field.bareProperty)($0\(shopArgument(field)), into: &errors) }"
                    )
                }
                out.line("try errors.throwIfAny()")
                let removing = names.removableFields.isEmpty ? [] : ["removing: removing"]
                out.list("return \(names.patch)(", writable.map { "\($0.bareProperty): \($0.bareProperty)" } + removing)
            }
        }
    }

    /// The once-file of `rules: true`: the rules across the entity's fields, the user's to write.
    static func rulesOnce(_ names: SceneNames) -> String {
        let e = names.entity
        var out = CodeWriter()
        out.lines(["import Foundation", ""])
        out.block("extension \(e)") { out in
            out.doc(
                """
                The rules across this \(UseCaseRenderer.humanName(e))'s fields, checked on create and replace after each
                field's own (every field here has its type and bounds): the record as stored,
                normalized as the rules say, or a `ValidationError` naming each field that breaks one.
                """)
            out.block("func checkingRules() throws(ValidationError) -> \(e)") { out in
                out.line("// scenegen: check here the rules across fields (this file is yours).")
                out.line("self")
            }
        }
        return out.text
    }
}
