/// The Domain layer of a scene: the entity with its enums, the draft and changes clients send,
/// the rules the spec sets on each field, and the ports.
enum DomainRenderer {
    static func entity(_ names: SceneNames) -> String {
        let fields = names.fields
        var out = CodeWriter()
        out.lines(["import Foundation", ""])
        out.doc(names.spec.summary)
        out.block("public struct \(names.entity): Hashable, Sendable") { out in
            var parameters: [String] = []
            for (index, field) in fields.enumerated() {
                out.line("public \(field.writable ? "var" : "let") \(field.property): \(field.entityType)")
                parameters.append("\(field.bareProperty): \(field.entityType)")
                if index == 0 && names.owned {
                    out.doc("The customer the record belongs to; every query is scoped to it.")
                    out.line("public let customerID: UUID")
                    parameters.append("customerID: UUID")
                }
            }
            out.blank()
            initializer(parameters, into: &out)
        }
        for field in fields {
            guard case .enumeration(let values) = field.field.type, field.field.enumTypeName == nil else { continue }
            out.blank()
            out.append(enumeration(field.enumType, values: values))
        }
        if names.drafts { draft(names, into: &out) }
        if names.updates { changes(names, into: &out) }
        if !names.filterFields.isEmpty { filter(names, into: &out) }
        rules(names, into: &out)
        return out.text
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

    /// `public init(a: A, b: B) { self.a = a ... }` at the writer's depth, one parameter per line
    /// when long; `defaults` gives each parameter `= nil`.
    static func initializer(_ parameters: [String], defaults: Bool = false, into out: inout CodeWriter) {
        let rendered = parameters.map { defaults ? $0 + " = nil" : $0 }
        let opener = "public init(" + rendered.joined(separator: ", ") + ")"
        let assignments = parameters.map { parameter in
            let name = String(parameter.prefix { $0 != ":" })
            return "self.\(name) = \(name)"
        }
        if out.depth * 4 + opener.count + 3 > 130 {
            out.list("public init(", rendered, closer: ") {")
            out.indented { $0.lines(assignments) }
            out.line("}")
        } else {
            out.block(opener) { $0.lines(assignments) }
        }
    }

    /// `public struct name: Hashable, Sendable` of `public let` members (`name: Type`) and their
    /// initializer, then the enum declarations its members are typed by.
    static func valueStruct(_ name: String, _ members: [String], enums: [String], into out: inout CodeWriter) {
        out.block("public struct \(name): Hashable, Sendable") { out in
            out.lines(members.map { "public let \($0)" })
            out.blank()
            initializer(
                members.map { member in
                    // The parameter of `` `default`: Int `` is `default: Int`.
                    member.replacingOccurrences(of: "`", with: "")
                }, into: &out)
        }
        enumerations(enums, into: &out)
    }

    /// The enum declarations of fields (`TypedField.enumDeclaration`), a blank line before each.
    static func enumerations(_ declarations: [String], into out: inout CodeWriter) {
        for declaration in declarations {
            out.blank()
            out.append(declaration)
        }
    }

    private static func draft(_ names: SceneNames, into out: inout CodeWriter) {
        let writable = names.writable
        out.blank()
        out.doc(
            names.replaces
                ? "What a client sends to create or replace a \(names.entity), before it is checked. A `nil`\nfield takes its default (or stays empty when optional)."
                : "What a client sends to create a \(names.entity), before it is checked. A `nil` field takes\nits default (or stays empty when optional)."
        )
        out.block("public struct \(names.draft): Hashable, Sendable") { out in
            var parameters: [String] = []
            for field in writable {
                let type = field.inputType + (field.requiredOnCreate ? "" : "?")
                out.line("public var \(field.property): \(type)")
                parameters.append("\(field.bareProperty): \(type)" + (field.requiredOnCreate ? "" : " = nil"))
            }
            if writable.isEmpty {
                out.line("public init() {}")
            } else {
                out.blank()
                initializer(parameters, into: &out)
            }
        }
    }

    /// `public var` members of `fields` typed `type(field)?`, a blank line, and their initializer
    /// with every parameter defaulting to `nil`.
    private static func optionalMembers(_ fields: [SwiftField], _ type: (SwiftField) -> String, into out: inout CodeWriter) {
        out.lines(fields.map { "public var \($0.property): \(type($0))?" })
        out.blank()
        initializer(fields.map { "\($0.bareProperty): \(type($0))?" }, defaults: true, into: &out)
    }

    /// `EFilter`, and its parsing from query parameters as clients write them.
    private static func filter(_ names: SceneNames, into out: inout CodeWriter) {
        let fields = names.filterFields
        out.blank()
        out.doc("What a list of \(names.entity) records is narrowed to: each field set must equal its value.")
        out.block("public struct \(names.filter): Hashable, Sendable") { out in
            optionalMembers(fields, \.valueType, into: &out)
            out.blank()
            out.doc(
                "The filter from query parameters; `nil` leaves a field unfiltered.\n- Throws: `ValidationError` naming every parameter that is no value of its field."
            )
            let parameters = fields.map { "\($0.bareProperty): String?" }.joined(separator: ", ")
            out.block("public static func parsing(\(parameters)) throws(ValidationError) -> \(names.filter)") { out in
                out.line("var errors = FieldErrors()")
                out.line("var filter = \(names.filter)()")
                for field in fields { parse(field, into: &out) }
                out.line("try errors.throwIfAny()")
                out.line("return filter")
            }
        }
    }

    /// The parsing of one filter parameter, with the error when it is no value of its field.
    private static func parse(_ field: SwiftField, into out: inout CodeWriter) {
        let v = field.bareProperty
        let parse: String
        let message: String?
        switch field.field.type {
        case .enumeration(let values):
            (parse, message) = ("\(field.enumType)(rawValue: \(v))", "must be one of \(values.joined(separator: ", "))")
        case .uuid: (parse, message) = ("UUID(text: \(v))", "must be a UUID")
        case .bool: (parse, message) = ("Bool(\(v))", "must be true or false")
        case .int: (parse, message) = ("Int32(\(v)).map(Int.init)", "must be an integer from -2147483648 to 2147483647")
        case .bigint: (parse, message) = ("Int64(\(v))", "must be an integer")
        default: (parse, message) = (v, nil)
        }
        out.block("if let \(field.property)") { out in
            out.line("filter.\(field.property) = \(parse)")
            if let message {
                out.line("errors.require(filter.\(field.property) != nil, \(swiftString(field.name)), \(swiftString(message)))")
            }
        }
    }

    private static func changes(_ names: SceneNames, into out: inout CodeWriter) {
        let writable = names.writable
        guard !writable.isEmpty else { return }
        let removable = names.removableFields
        out.blank()
        out.doc(
            "A partial update as a client sends it: `nil` leaves a field as it is"
                + (removable.isEmpty ? "." : "; a field in `removing` is removed (its JSON `null`)."))
        out.block("public struct \(names.changes): Hashable, Sendable") { out in
            updateMembers(names, \.inputType, into: &out)
            out.blank()
            let unchanged = writable.map { "\($0.property) == nil" } + (removable.isEmpty ? [] : ["removing.isEmpty"])
            out.block("public var isEmpty: Bool") { $0.line(unchanged.joined(separator: " && ")) }
        }
        out.blank()
        out.doc(
            "Checked changes, typed as the entity's fields: `nil` leaves a field as it is"
                + (removable.isEmpty ? "." : "; a field in `removing` is removed."))
        out.block("public struct \(names.patch): Hashable, Sendable") { updateMembers(names, \.valueType, into: &$0) }
        guard !removable.isEmpty else { return }
        out.blank()
        out.doc("The fields a partial update may remove: those that may be absent.")
        out.block("public enum \(names.removable): String, Hashable, Sendable, CaseIterable") { out in
            for field in removable {
                let bare = field.property.replacingOccurrences(of: "`", with: "")
                out.line("case \(field.property)" + (bare == field.name ? "" : " = \(swiftString(field.name))"))
            }
        }
    }

    /// The optional members of a partial update, and the fields it removes when any may be absent.
    private static func updateMembers(_ names: SceneNames, _ type: (SwiftField) -> String, into out: inout CodeWriter) {
        guard !names.removableFields.isEmpty else { return optionalMembers(names.writable, type, into: &out) }
        out.lines(names.writable.map { "public var \($0.property): \(type($0))?" })
        out.line("public var removing: Set<\(names.removable)>")
        out.blank()
        initializer(
            names.writable.map { "\($0.bareProperty): \(type($0))? = nil" } + ["removing: Set<\(names.removable)> = []"], into: &out)
    }

    static func ports(_ names: SceneNames) -> String {
        let e = names.entity
        let v = names.entityVariable
        let owner = names.scopeParameter
        let throwsLikeInsert =
            "- Throws: `RecordError.duplicate` for a taken unique value, `.missingReference` for a\n  reference to nothing."
        // Only the methods the spec's CRUD kinds call.
        var methods: [(doc: String, signature: String)] = []
        if names.creates {
            methods.append(("Stores a new record.\n" + throwsLikeInsert, "func insert(_ \(v): \(e)) async throws -> \(e)"))
        }
        if names.lists {
            let notFound = names.parentLabel.map { "\n- Throws: `RecordError.notFound` when the \($0) does not exist." } ?? ""
            let filter = names.filterFields.isEmpty ? "" : "matching filter: \(names.filter), "
            methods.append(
                (
                    "Records newest first, strictly after `cursor`, at most `limit` of them." + notFound,
                    "func page(\(owner)\(filter)after cursor: PageCursor?, limit: Int) async throws -> [\(e)]"
                ))
        }
        if names.gets { methods.append(("The record with this id, or `nil`.", "func find(\(owner)id: UUID) async throws -> \(e)?")) }
        if names.updates {
            methods.append(
                (
                    "Changes only the fields `patch` sets, in one statement; `nil` when no such record.\n" + throwsLikeInsert,
                    "func update(\(owner)id: UUID, with patch: \(names.patch)) async throws -> \(e)?"
                ))
        }
        if names.replaces {
            methods.append(
                (
                    "Writes every writable field of `\(v)` over the record `id` (its readonly fields stay the\nrecord's), in one transaction; `nil` when no such record.\n"
                        + throwsLikeInsert,
                    "func replace(\(owner)id: UUID, with \(v): \(e)) async throws -> \(e)?"
                ))
        }
        if names.deletes {
            methods.append(
                (
                    "Deletes the record; `false` when there was none.\n- Throws: `RecordError.referenced` while other rows refer to it.",
                    "func delete(\(owner)id: UUID) async throws -> Bool"
                ))
        }
        var out = CodeWriter()
        out.lines(["import Foundation", ""])
        out.doc("Where \(e) records live. Implemented by `\(names.postgresStore)`; mocked in use-case tests.")
        if names.owned { out.doc("Every method of an owned entity takes the owner: another customer's row is never seen.") }
        if let parent = names.parent {
            let but = names.creates ? " but `insert`" : ""
            out.doc("Every method\(but) takes the parent (`\(parent.bareProperty)`): a row under another is never seen.")
        }
        out.doc("Every method throws `StoreUnavailable` when the store cannot be reached.")
        out.block("public protocol \(names.store): Sendable") { out in
            for (index, method) in methods.enumerated() {
                if index > 0 { out.blank() }
                out.doc(method.doc)
                out.line(method.signature)
            }
        }
        return out.text
    }
}
