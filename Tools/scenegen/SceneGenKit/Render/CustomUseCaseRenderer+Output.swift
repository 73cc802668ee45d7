extension CustomUseCaseRenderer {
    /// A response member of an outcome: its wire type and the expression converting the domain
    /// value `value` into it.
    static func wire(_ field: TypedField, _ value: String) -> (type: String, expression: String) {
        let optional = field.spec.optional
        let chain = optional ? "\(value)?" : value
        let (type, expression): (String, String)
        switch field.spec.type {
        case .uuid: (type, expression) = ("String", "\(chain).lowercasedText")
        case .money: (type, expression) = ("MoneyModel", optional ? "\(value).map(MoneyModel.init)" : "MoneyModel(\(value))")
        case .timestamp: (type, expression) = ("String", optional ? "\(value).map(Timestamp.rfc3339)" : "Timestamp.rfc3339(\(value))")
        case .enumeration: (type, expression) = ("String", "\(chain).rawValue")
        case .int: (type, expression) = ("Int", value)
        case .bigint: (type, expression) = ("Int64", value)
        case .bool: (type, expression) = ("Bool", value)
        case .number: (type, expression) = ("Double", value)
        case .string, .text: (type, expression) = ("String", value)
        }
        return (type + (optional ? "?" : ""), expression)
    }

    /// The response models of the outcomes that answer a list of fields (Translator).
    static func models(_ names: SceneNames) -> String {
        var out = CodeWriter()
        for useCase in names.useCases(.custom) {
            for outcome in useCase.outcomes {
                guard case .fields(let specs) = outcome.body, outcome.status < 400 else { continue }
                let fields = TypedField.list(specs, prefix: names.outcomeFieldPrefix(useCase, outcome))
                out.blank()
                out.doc("The body of `\(useCase.name)`'s `\(outcome.name)` answer.")
                out.block("public struct \(names.outcomeModel(useCase, outcome)): \(OutputRenderer.modelConformances)") { out in
                    out.lines(fields.map { "public let \($0.property): \(wire($0, "").type)" })
                    WiringRenderer.codingKeys(fields.map { ($0.property, $0.name) }, into: &out)
                    out.blank()
                    let parameters = fields.map { "\($0.bare): \($0.optionalValueType)" }
                    out.block("public init(\(parameters.joined(separator: ", ")))") {
                        $0.lines(fields.map { "self.\($0.bare) = \(wire($0, $0.bare).expression)" })
                    }
                    out.blank()
                    OutputRenderer.encodeEveryMember(
                        fields.map { ($0.property, $0.name) }, doc: "Writes every member, `null` included.", into: &out)
                }
            }
        }
        return out.text
    }

    /// A problem outcome's answer: its detail and field errors (their `{name}`s filled from
    /// the outcome's members) and its members as the problem's extension members; a 401 with
    /// the `WWW-Authenticate` challenge.
    static func problem(
        _ names: SceneNames, _ useCase: UseCaseSpec, _ outcome: OutcomeSpec, members: [FieldSpec], into out: inout CodeWriter
    ) {
        let words = outcome.name.replacingOccurrences(of: "_", with: " ")
        let spelled = outcome.name.split(separator: "_").map { Names.initialisms.contains(String($0)) ? $0.uppercased() : String($0) }
            .joined(separator: " ")
        let title = spelled.prefix(1).uppercased() + spelled.dropFirst()
        let slug = swiftString(outcome.name.replacingOccurrences(of: "_", with: "-"))
        let detail = interpolated(outcome.detail ?? "\(names.scene) \(useCase.name): \(words).", members)
        if outcome.status == 401 && outcome.fieldErrors.isEmpty && members.isEmpty && !outcome.logicErrors {
            out.line("Problem.unauthorized(\(detail))")
            return
        }
        var call = "Problem.make(\(outcome.status), \(slug), \(swiftString(title)), detail: \(detail)"
        let errors = outcome.fieldErrors.map { "FieldError(\(swiftString($0.field)), \(interpolated($0.message, members)))" }
        if outcome.logicErrors {
            call += errors.isEmpty ? ", errors: errors" : ", errors: [\(errors.joined(separator: ", "))] + errors"
        } else {
            call += errors.isEmpty ? "" : ", errors: [\(errors.joined(separator: ", "))]"
        }
        if !members.isEmpty {
            let entries = members.map { "\(swiftString($0.name)): \(problemValue($0))" }
            let optional = members.contains(where: \.optional)
            call += ", extensions: [\(entries.joined(separator: ", "))]" + (optional ? ".compactMapValues { $0 }" : "")
        }
        out.line(call + (outcome.status == 401 ? ", headers: [(\"WWW-Authenticate\", \"Bearer\")])" : ")"))
    }

    /// A member as a `ProblemValue` (optional when the member is).
    static func problemValue(_ field: FieldSpec) -> String {
        let value = Names.member(field.name)
        if field.list { return ".strings(\(value).map { \(text(field, "$0")) })" }
        let wrap: (String) -> String
        switch field.type {
        case .int: wrap = { ".int(\($0))" }
        case .bigint: wrap = { ".int(Int(\($0)))" }
        case .bool: wrap = { ".bool(\($0))" }
        case .money: wrap = { ".money(\($0))" }
        default: wrap = { ".string(\(text(field, $0)))" }
        }
        return field.optional ? "\(value).map { \(wrap("$0")) }" : wrap(value)
    }

    /// A member's text: a UUID lowercased, an enum's value, an instant in RFC 3339, money as a
    /// price (`¥1,200`).
    static func text(_ field: FieldSpec, _ value: String) -> String {
        switch field.type {
        case .uuid: "\(value).lowercasedText"
        case .enumeration: "\(value).rawValue"
        case .timestamp: "Timestamp.rfc3339(\(value))"
        case .int, .bigint, .bool, .number: "String(\(value))"
        case .money: "\(value).priceText"
        case .string, .text: value
        }
    }

    /// `text` as a Swift string literal, each `{name}` interpolating that member's text.
    static func interpolated(_ text: String, _ members: [FieldSpec]) -> String {
        var literal = swiftString(text)
        for field in members {
            literal = literal.replacingOccurrences(of: "{\(field.name)}", with: "\\(\(self.text(field, Names.member(field.name))))")
        }
        return literal
    }

    /// The presenter method of a custom use case: each outcome with its status (Presenter).
    static func presenter(_ names: SceneNames, _ useCase: UseCaseSpec) -> String {
        var out = CodeWriter(depth: 1)
        out.doc("`\(useCase.name)`: " + useCase.outcomes.map { "\($0.name) \($0.status)" }.joined(separator: ", ") + ".")
        out.block("public static func \(names.method(useCase))(_ outcome: Result<\(names.outcome(useCase)), any Error>) -> Presentation") {
            out in
            out.line("outcome.map { answer in")
            out.indented { out in
                // Swift's style: the cases at the depth of their `switch`.
                out.line("switch answer {")
                for outcome in useCase.outcomes { presentation(names, useCase, outcome, into: &out) }
                out.line("}")
            }
            out.line("}.recover(Problem.from)")
        }
        return out.text
    }

    /// `, headers: [("Location", ...)]` for an outcome with a `location`, each `{name}` the text
    /// of the body's member that `access` reaches; empty without one.
    private static func location(_ names: SceneNames, _ outcome: OutcomeSpec, access: (FieldSpec) -> String) -> String {
        guard let location = outcome.location, let members = names.spec.locationMembers(of: outcome) else { return "" }
        var literal = swiftString(location)
        for field in members {
            literal = literal.replacingOccurrences(of: "{\(field.name)}", with: "\\(\(text(field, access(field))))")
        }
        return ", headers: [(\"Location\", \(literal))]"
    }

    /// The `case` of `outcome` in the presenter's switch.
    private static func presentation(_ names: SceneNames, _ useCase: UseCaseSpec, _ outcome: OutcomeSpec, into out: inout CodeWriter) {
        let name = Names.member(outcome.name)
        switch outcome.body {
        case .entity:
            let headers = location(names, outcome) { "record.\(SwiftField(field: $0, entity: names.entity).property)" }
            out.line("case .\(name)(let record): .json(\(outcome.status), \(names.translator).model(record)\(headers))")
        case .model(let type):
            let headers = location(names, outcome) { "value.\(SceneNames.identifier(Names.member($0.name)))" }
            out.line("case .\(name)(let value): .json(\(outcome.status), \(names.translator(of: type)).model(value)\(headers))")
        case .page(let type):
            out.line("case .\(name)(let page):")
            out.indented {
                $0.line(
                    ".json(\(outcome.status), PageModel(data: page.items.map(\(names.translator(of: type)).model), "
                        + "nextCursor: page.nextCursor?.token))")
            }
        case .fields(let specs) where outcome.status >= 400:
            let bindings = specs.map { "let \(Names.member($0.name))" } + (outcome.logicErrors ? ["let errors"] : [])
            out.line("case .\(name)(\(bindings.joined(separator: ", "))):")
            out.indented { problem(names, useCase, outcome, members: specs, into: &$0) }
        case .fields(let specs):
            let members = specs.map { Names.member($0.name) }
            let bindings = members.map { "let \($0)" }.joined(separator: ", ")
            let arguments = members.map { "\($0): \($0)" }.joined(separator: ", ")
            let headers = location(names, outcome) { SceneNames.identifier(Names.member($0.name)) }
            out.line(
                "case .\(name)(\(bindings)): .json(\(outcome.status), \(names.outcomeModel(useCase, outcome))(\(arguments))\(headers))")
        case .none where outcome.status >= 400:
            out.line("case .\(name)\(outcome.logicErrors ? "(let errors)" : ""):")
            out.indented { problem(names, useCase, outcome, members: [], into: &$0) }
        case .none:
            out.line("case .\(name): Presentation(status: \(outcome.status))")
        }
    }
}
