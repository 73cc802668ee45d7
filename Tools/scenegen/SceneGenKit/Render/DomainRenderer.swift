/// The Domain layer of a scene: the entity with its enums, the draft and changes clients send,
/// the rules the spec sets on each field, and the ports.
enum DomainRenderer {
    static func entity(_ names: SceneNames) -> String {
        let fields = names.fields
        var out = "import Foundation\n\n"
        out += "/// \(names.spec.summary)\n"
        out += "public struct \(names.entity): Hashable, Sendable {\n"
        var parameters: [String] = []
        for (index, field) in fields.enumerated() {
            let keyword = field.writable ? "var" : "let"
            out += "    public \(keyword) \(field.property): \(field.entityType)\n"
            parameters.append("\(field.bareProperty): \(field.entityType)")
            if index == 0 && names.owned {
                out += "    /// The customer the record belongs to; every query is scoped to it.\n"
                out += "    public let customerID: UUID\n"
                parameters.append("customerID: UUID")
            }
        }
        out += "\n" + initializer(parameters, indent: "    ") + "}\n"
        for field in fields {
            guard case .enumeration(let values) = field.field.type else { continue }
            out += "\n" + enumeration(field.enumType, values: values)
        }
        if names.creates { out += draft(names) }
        if names.updates { out += changes(names) }
        if !names.filterFields.isEmpty { out += filter(names) }
        return out + rules(names)
    }

    /// `public enum name: String` with a case per value.
    static func enumeration(_ name: String, values: [String]) -> String {
        var out = "public enum \(name): String, CaseIterable, Hashable, Sendable {\n"
        for value in values {
            let caseName = Names.caseName(value)
            out += "    case \(SceneNames.identifier(caseName))" + (caseName == value ? "\n" : " = \(swiftString(value))\n")
        }
        return out + "}\n"
    }

    /// `public init(a: A, b: B) { self.a = a ... }`, one parameter per line when long.
    static func initializer(_ parameters: [String], indent: String, defaults: Bool = false) -> String {
        let rendered = parameters.map { defaults ? $0 + " = nil" : $0 }
        var out = indent + "public init(" + rendered.joined(separator: ", ") + ") {\n"
        if out.count > 130 {
            out = indent + "public init(\n" + rendered.map { indent + "    " + $0 }.joined(separator: ",\n") + "\n" + indent + ") {\n"
        }
        for parameter in parameters {
            let name = String(parameter.prefix { $0 != ":" })
            out += indent + "    self.\(name) = \(name)\n"
        }
        return out + indent + "}\n"
    }

    private static func draft(_ names: SceneNames) -> String {
        let writable = names.writable
        var out = "\n/// What a client sends to create a \(names.entity), before it is checked. A `nil` field takes\n"
        out += "/// its default (or stays empty when optional).\n"
        out += "public struct \(names.draft): Hashable, Sendable {\n"
        var parameters: [String] = []
        for field in writable {
            let type = field.inputType + (field.requiredOnCreate ? "" : "?")
            out += "    public var \(field.property): \(type)\n"
            parameters.append("\(field.bareProperty): \(type)" + (field.requiredOnCreate ? "" : " = nil"))
        }
        if writable.isEmpty { return out + "    public init() {}\n}\n" }
        return out + "\n" + initializer(parameters, indent: "    ") + "}\n"
    }

    /// `EFilter`, and its parsing from query parameters as clients write them.
    private static func filter(_ names: SceneNames) -> String {
        let fields = names.filterFields
        var out = "\n/// What a list of \(names.entity) records is narrowed to: each field set must equal its value.\n"
        out += "public struct \(names.filter): Hashable, Sendable {\n"
        for field in fields { out += "    public var \(field.property): \(field.valueType)?\n" }
        out += "\n" + initializer(fields.map { "\($0.bareProperty): \($0.valueType)?" }, indent: "    ", defaults: true)
        out += "\n    /// The filter from query parameters; `nil` leaves a field unfiltered.\n"
        out += "    /// - Throws: `ValidationError` naming every parameter that is no value of its field.\n"
        let parameters = fields.map { "\($0.bareProperty): String?" }.joined(separator: ", ")
        out += "    public static func parsing(\(parameters)) throws(ValidationError) -> \(names.filter) {\n"
        out += "        var errors = FieldErrors()\n"
        out += "        var filter = \(names.filter)()\n"
        for field in fields {
            let v = field.bareProperty
            let parse: String
            let message: String?
            switch field.field.type {
            case .enumeration(let values):
                (parse, message) = ("\(field.enumType)(rawValue: \(v))", "must be one of \(values.joined(separator: ", "))")
            case .uuid: (parse, message) = ("UUID(uuidString: \(v))", "must be a UUID")
            case .bool: (parse, message) = ("Bool(\(v))", "must be true or false")
            case .int: (parse, message) = ("Int32(\(v)).map(Int.init)", "must be an integer from -2147483648 to 2147483647")
            case .bigint: (parse, message) = ("Int64(\(v))", "must be an integer")
            default: (parse, message) = (v, nil)
            }
            out += "        if let \(field.property) {\n"
            out += "            filter.\(field.property) = \(parse)\n"
            if let message {
                out += "            errors.require(filter.\(field.property) != nil, \(swiftString(field.name)), \(swiftString(message)))\n"
            }
            out += "        }\n"
        }
        out += "        try errors.throwIfAny()\n        return filter\n    }\n}\n"
        return out
    }

    private static func changes(_ names: SceneNames) -> String {
        let writable = names.writable
        guard !writable.isEmpty else { return "" }
        var out = "\n/// A partial update as a client sends it: `nil` leaves a field as it is.\n"
        out += "public struct \(names.changes): Hashable, Sendable {\n"
        for field in writable { out += "    public var \(field.property): \(field.inputType)?\n" }
        out += "\n" + initializer(writable.map { "\($0.bareProperty): \($0.inputType)?" }, indent: "    ", defaults: true)
        out += "\n    public var isEmpty: Bool {\n        "
        out += writable.map { "\($0.property) == nil" }.joined(separator: " && ") + "\n    }\n}\n"
        out += "\n/// Checked changes, typed as the entity's fields: `nil` leaves a field as it is.\n"
        out += "public struct \(names.patch): Hashable, Sendable {\n"
        for field in writable { out += "    public var \(field.property): \(field.valueType)?\n" }
        out += "\n" + initializer(writable.map { "\($0.bareProperty): \($0.valueType)?" }, indent: "    ", defaults: true)
        return out + "}\n"
    }

    /// The check of one input value, as an expression of the field's value type (optional when
    /// the field has a rule that can fail).
    static func hasRule(_ field: SwiftField) -> Bool {
        switch field.field.type {
        // An int is a PostgreSQL integer: it always has bounds, its column's when the spec sets none.
        case .int: return true
        case .string, .text, .bigint: return field.field.min != nil || field.field.max != nil
        case .money, .enumeration: return true
        case .uuid, .bool, .timestamp: return false
        }
    }

    private static func rules(_ names: SceneNames) -> String {
        guard names.creates || names.updates else { return "" }
        let checked = names.writable.filter(hasRule)
        var out = ""
        if !checked.isEmpty {
            out += "\n/// The spec's rules for each field, shared by create and update so both say the same thing.\n"
            out += "enum \(names.entity)Rules {\n"
            out += checked.map { rule($0) }.joined(separator: "\n")
            out += "}\n"
        }
        if names.creates { out += validateDraft(names) }
        if names.updates { out += validateChanges(names) }
        return out
    }

    static func rule(_ field: SwiftField) -> String {
        let f = field.field
        let name = f.name
        var out =
            "    static func \(field.bareProperty)(_ value: \(field.inputType), into errors: inout FieldErrors) -> \(field.valueType)? {\n"
        switch f.type {
        case .string, .text:
            // Counted in Unicode scalars, as PostgreSQL's char_length counts, so the CHECK agrees.
            out += "        let length = value.storedLength\n"
            out += "        let valid = " + bounds("length", f.min, f.max) + "\n"
            out += "        errors.require(valid, \"\(name)\", \"must be \(describe(f.min, f.max, unit: " characters"))\")\n"
            out += "        return valid ? value : nil\n"
        case .int, .bigint:
            let (min, max) = f.type == .int ? (f.min ?? Int64(Int32.min), f.max ?? Int64(Int32.max)) : (f.min, f.max)
            out += "        let valid = " + bounds("value", min, max) + "\n"
            out += "        errors.require(valid, \"\(name)\", \"must be \(describe(min, max, unit: ""))\")\n"
            out += "        return valid ? value : nil\n"
        case .money:
            let min = f.min ?? 0
            out += "        let validAmount = " + bounds("value.amount", min, f.max) + "\n"
            out += "        errors.require(validAmount, \"\(name).amount\", \"must be \(describe(min, f.max, unit: " minor units"))\")\n"
            out += "        let currency = Currency(value.currency)\n"
            out +=
                "        errors.require(currency != nil, \"\(name).currency\", \"must be an ISO 4217 code of three uppercase letters\")\n"
            out += "        guard validAmount, let currency else { return nil }\n"
            out += "        return Money(amount: value.amount, currency: currency)\n"
        case .enumeration(let values):
            out += "        let valid = \(field.enumType)(rawValue: value)\n"
            out += "        errors.require(valid != nil, \"\(name)\", \"must be one of \(values.joined(separator: ", "))\")\n"
            out += "        return valid\n"
        case .uuid, .bool, .timestamp:
            break
        }
        return out + "    }\n"
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
        case (let min?, let max?): return "\(min) to \(max)\(unit)"
        case (let min?, nil): return "at least \(min)\(unit)"
        case (nil, let max?): return "at most \(max)\(unit)"
        case (nil, nil): return "valid"
        }
    }

    /// The draft checked and completed into a new entity.
    private static func validateDraft(_ names: SceneNames) -> String {
        let needsNow = names.fields.contains { $0.field.defaultValue == .now }
        var parameters = ["id: UUID"]
        if names.owned { parameters.append("customerID: UUID") }
        if let parent = names.parent { parameters.append("\(parent.bareProperty): UUID") }
        if needsNow { parameters.append("now: Date") }
        var out = "\nextension \(names.draft) {\n"
        out += "    /// The draft as a new \(names.entity), with its defaults filled in.\n"
        out += "    /// - Throws: `ValidationError` listing every field that breaks the spec's rules.\n"
        out += "    public func validated(\(parameters.joined(separator: ", "))) throws(ValidationError) -> \(names.entity) {\n"
        let checked = names.writable.filter(hasRule)
        if !checked.isEmpty { out += "        var errors = FieldErrors()\n" }
        var arguments: [String] = []
        for field in names.fields {
            arguments.append("\(field.bareProperty): " + draftValue(field, names: names))
            if field.field.primary && names.owned { arguments.append("customerID: customerID") }
        }
        for field in checked {
            let input = inputExpression(field)
            let check = "\(names.entity)Rules.\(field.bareProperty)($0, into: &errors)"
            if field.field.optional && field.field.defaultValue == nil {
                out += "        let \(field.bareProperty) = \(input).flatMap { \(check) }\n"
            } else {
                out += "        let \(field.bareProperty) = \(names.entity)Rules.\(field.bareProperty)(\(input), into: &errors)\n"
            }
        }
        if !checked.isEmpty { out += "        try errors.throwIfAny()\n" }
        out += "        return \(names.entity)(\n"
        out += arguments.map { "            " + $0 }.joined(separator: ",\n") + "\n        )\n    }\n}\n"
        return out
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

    private static func validateChanges(_ names: SceneNames) -> String {
        let writable = names.writable
        var out = "\nextension \(names.changes) {\n"
        out += "    /// The changes, checked and typed.\n"
        out += "    /// - Throws: `ValidationError` listing every changed field that breaks the spec's rules, or\n"
        out += "    ///   the whole body when it changes nothing.\n"
        out += "    public func validated() throws(ValidationError) -> \(names.patch) {\n"
        out += "        var errors = FieldErrors()\n"
        let list = writable.map(\.name).joined(separator: ", ")
        out += "        errors.require(!isEmpty, \"body\", \"must change at least one of \(list)\")\n"
        for field in writable where hasRule(field) {
            out +=
                "        let \(field.bareProperty) = self.\(field.bareProperty).flatMap { \(names.entity)Rules.\(field.bareProperty)($0, into: &errors) }\n"
        }
        out += "        try errors.throwIfAny()\n"
        out += "        return \(names.patch)(\n"
        out += writable.map { "            \($0.bareProperty): \($0.bareProperty)" }.joined(separator: ",\n") + "\n        )\n    }\n}\n"
        return out
    }

    static func ports(_ names: SceneNames) -> String {
        let e = names.entity
        let v = names.entityVariable
        let owner = names.scopeParameter
        var out = "import Foundation\n\n"
        out += "/// Where \(e) records live. Implemented by `\(names.postgresStore)`; mocked in use-case tests.\n"
        if names.owned { out += "/// Every method of an owned entity takes the owner: another customer's row is never seen.\n" }
        if let parent = names.parent {
            let but = names.creates ? " but `insert`" : ""
            out += "/// Every method\(but) takes the parent (`\(parent.bareProperty)`): a row under another is never seen.\n"
        }
        out += "/// Every method throws `StoreUnavailable` when the store cannot be reached.\n"
        out += "public protocol \(names.store): Sendable {\n"
        var methods: [String] = []
        if names.creates {
            methods.append(
                "    /// Stores a new record.\n"
                    + "    /// - Throws: `RecordError.duplicate` for a taken unique value, `.missingReference` for a\n"
                    + "    ///   reference to nothing.\n"
                    + "    func insert(_ \(v): \(e)) async throws -> \(e)\n")
        }
        if names.lists {
            var out = ""
            out += "    /// Records newest first, strictly after `cursor`, at most `limit` of them.\n"
            if let label = names.parentLabel { out += "    /// - Throws: `RecordError.notFound` when the \(label) does not exist.\n" }
            let filter = names.filterFields.isEmpty ? "" : "matching filter: \(names.filter), "
            out += "    func page(\(owner)\(filter)after cursor: PageCursor?, limit: Int) async throws -> [\(e)]\n"
            methods.append(out)
        }
        if names.gets {
            methods.append("    /// The record with this id, or `nil`.\n" + "    func find(\(owner)id: UUID) async throws -> \(e)?\n")
        }
        if names.updates {
            methods.append(
                "    /// Changes only the fields `patch` sets, in one statement; `nil` when no such record.\n"
                    + "    /// - Throws: `RecordError.duplicate` for a taken unique value, `.missingReference` for a\n"
                    + "    ///   reference to nothing.\n"
                    + "    func update(\(owner)id: UUID, with patch: \(names.patch)) async throws -> \(e)?\n")
        }
        if names.deletes {
            methods.append(
                "    /// Deletes the record; `false` when there was none.\n" + "    func delete(\(owner)id: UUID) async throws -> Bool\n")
        }
        return out + methods.joined(separator: "\n") + "}\n"
    }
}
