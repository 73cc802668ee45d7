extension CustomUseCaseRenderer {
    /// A response member of an outcome: its wire type and the expression converting the domain
    /// value `value` into it.
    static func wire(_ field: TypedField, _ value: String) -> (type: String, expression: String) {
        let optional = field.spec.optional
        let chain = optional ? "\(value)?" : value
        let (type, expression): (String, String)
        switch field.spec.type {
        case .uuid: (type, expression) = ("String", "\(chain).uuidString.lowercased()")
        case .money: (type, expression) = ("MoneyModel", optional ? "\(value).map(MoneyModel.init)" : "MoneyModel(\(value))")
        case .timestamp: (type, expression) = ("String", optional ? "\(value).map(Timestamp.rfc3339)" : "Timestamp.rfc3339(\(value))")
        case .enumeration: (type, expression) = ("String", "\(chain).rawValue")
        case .int: (type, expression) = ("Int", value)
        case .bigint: (type, expression) = ("Int64", value)
        case .bool: (type, expression) = ("Bool", value)
        case .string, .text: (type, expression) = ("String", value)
        }
        return (type + (optional ? "?" : ""), expression)
    }

    /// The response models of the outcomes that answer a list of fields (Translator).
    static func models(_ names: SceneNames) -> String {
        var out = ""
        for useCase in names.useCases(.custom) {
            for outcome in useCase.outcomes {
                guard case .fields(let specs) = outcome.body, outcome.status < 400 else { continue }
                let fields = TypedField.list(specs, prefix: names.outcomeFieldPrefix(useCase, outcome))
                let model = names.outcomeModel(useCase, outcome)
                out += "\n/// The body of `\(useCase.name)`'s `\(outcome.name)` answer.\n"
                out += "public struct \(model): Codable, Hashable, Sendable {\n"
                out += fields.map { "    public let \($0.property): \(wire($0, "").type)\n" }.joined()
                out += "\n    enum CodingKeys: String, CodingKey {\n"
                for field in fields {
                    out += "        case \(field.property)" + (field.bare == field.name ? "\n" : " = \(swiftString(field.name))\n")
                }
                out += "    }\n\n"
                let parameters = fields.map { "\($0.bare): \($0.optionalValueType)" }
                out += "    public init(\(parameters.joined(separator: ", "))) {\n"
                for field in fields { out += "        self.\(field.bare) = \(wire(field, field.bare).expression)\n" }
                out += "    }\n\n"
                out += "    /// Writes every member, `null` included.\n"
                out += "    public func encode(to encoder: any Encoder) throws {\n"
                out += "        var container = encoder.container(keyedBy: CodingKeys.self)\n"
                for field in fields { out += "        try container.encode(\(field.property), forKey: .\(field.property))\n" }
                out += "    }\n}\n"
            }
        }
        return out
    }

    /// A problem outcome's answer: its detail and field errors (their `{name}`s filled from
    /// the outcome's members) and its members as the problem's extension members; a 401 with
    /// the `WWW-Authenticate` challenge.
    static func problem(_ names: SceneNames, _ useCase: UseCaseSpec, _ outcome: OutcomeSpec, members: [FieldSpec]) -> String {
        let words = outcome.name.replacingOccurrences(of: "_", with: " ")
        let title = words.prefix(1).uppercased() + words.dropFirst()
        let slug = swiftString(outcome.name.replacingOccurrences(of: "_", with: "-"))
        let detail = interpolated(outcome.detail ?? "\(names.scene) \(useCase.name): \(words).", members)
        if outcome.status == 401 && outcome.fieldErrors.isEmpty && members.isEmpty {
            return "                Problem.unauthorized(\(detail))\n"
        }
        var out = "                Problem.make(\(outcome.status), \(slug), \(swiftString(title)), detail: \(detail)"
        let errors = outcome.fieldErrors.map { "FieldError(\(swiftString($0.field)), \(interpolated($0.message, members)))" }
        out += errors.isEmpty ? "" : ", errors: [\(errors.joined(separator: ", "))]"
        if !members.isEmpty {
            let entries = members.map { "\(swiftString($0.name)): \(problemValue($0))" }
            let optional = members.contains(where: \.optional)
            out += ", extensions: [\(entries.joined(separator: ", "))]" + (optional ? ".compactMapValues { $0 }" : "")
        }
        out += outcome.status == 401 ? ", headers: [(\"WWW-Authenticate\", \"Bearer\")])\n" : ")\n"
        return out
    }

    /// A member as a `ProblemValue` (optional when the member is).
    static func problemValue(_ field: FieldSpec) -> String {
        let value = Names.member(field.name)
        let wrap: (String) -> String
        switch field.type {
        case .int: wrap = { ".int(\($0))" }
        case .bigint: wrap = { ".int(Int(\($0)))" }
        case .bool: wrap = { ".bool(\($0))" }
        default: wrap = { ".string(\(text(field, $0)))" }
        }
        return field.optional ? "\(value).map { \(wrap("$0")) }" : wrap(value)
    }

    /// A member's text: a UUID lowercased, an enum's value, an instant in RFC 3339.
    static func text(_ field: FieldSpec, _ value: String) -> String {
        switch field.type {
        case .uuid: "\(value).uuidString.lowercased()"
        case .enumeration: "\(value).rawValue"
        case .timestamp: "Timestamp.rfc3339(\(value))"
        case .int, .bigint, .bool: "String(\(value))"
        case .string, .text, .money: value
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
        var out = "    /// `\(useCase.name)`: "
        out += useCase.outcomes.map { "\($0.name) \($0.status)" }.joined(separator: ", ") + ".\n"
        out +=
            "    public static func \(names.method(useCase))(_ outcome: Result<\(names.outcome(useCase)), any Error>) -> Presentation {\n"
        out += "        outcome.map { answer in\n            switch answer {\n"
        for outcome in useCase.outcomes {
            let name = Names.member(outcome.name)
            switch outcome.body {
            case .entity:
                out += "            case .\(name)(let record): .json(\(outcome.status), \(names.translator).model(record))\n"
            case .model(let type):
                out += "            case .\(name)(let value): .json(\(outcome.status), \(names.translator(of: type)).model(value))\n"
            case .page(let type):
                out += "            case .\(name)(let page):\n"
                out += "                .json(\(outcome.status), PageModel(data: page.items.map(\(names.translator(of: type)).model), "
                out += "nextCursor: page.nextCursor?.token))\n"
            case .fields(let specs) where outcome.status >= 400:
                let members = specs.map { Names.member($0.name) }
                out += "            case .\(name)(\(members.map { "let \($0)" }.joined(separator: ", "))):\n"
                out += problem(names, useCase, outcome, members: specs)
            case .fields(let specs):
                let members = specs.map { Names.member($0.name) }
                let bindings = members.map { "let \($0)" }.joined(separator: ", ")
                let arguments = members.map { "\($0): \($0)" }.joined(separator: ", ")
                out +=
                    "            case .\(name)(\(bindings)): .json(\(outcome.status), \(names.outcomeModel(useCase, outcome))(\(arguments)))\n"
            case .none where outcome.status >= 400:
                out += "            case .\(name):\n" + problem(names, useCase, outcome, members: [])
            case .none:
                out += "            case .\(name): Presentation(status: \(outcome.status))\n"
            }
        }
        out += "            }\n        }.recover(Problem.from)\n    }\n"
        return out
    }
}
