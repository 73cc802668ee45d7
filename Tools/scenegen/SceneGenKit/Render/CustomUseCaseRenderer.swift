/// A custom use case with typed input and output: the Domain types (`<Scene><UseCase>Input`
/// with its checks, `<Scene><UseCase>Outcome`), the once-file of the user's logic, the outcome
/// models (Translator), their statuses (Presenter) and the request parsing (HTTP).
enum CustomUseCaseRenderer {
    /// Input fields in the order the input declares them: path, query, body.
    static func fields(_ names: SceneNames, _ useCase: UseCaseSpec) -> [TypedField] {
        TypedField.list(useCase.input?.all ?? [], prefix: names.input(useCase))
    }

    static func hasCustomer(_ useCase: UseCaseSpec) -> Bool { useCase.auth == .customer }

    /// What the input holds beside the client's fields, from the request's authentication: the
    /// signed-in customer, and the session's token when the spec asks for it (`session: true`).
    static func authMembers(_ useCase: UseCaseSpec) -> [(name: String, type: String, doc: String, value: String)] {
        var members: [(name: String, type: String, doc: String, value: String)] = []
        if hasCustomer(useCase) {
            members.append(("customerID", "UUID", "The signed-in customer.", "try context.requireCustomer()"))
        }
        if useCase.input?.session == true {
            members.append(
                ("sessionToken", "String", "The bearer token of the session making the request.", "BearerToken.from(request) ?? \"\""))
        }
        return members
    }

    /// `Sources/Domain/<Scene>/<Scene><UseCase>.swift`.
    static func domain(_ names: SceneNames, _ useCase: UseCaseSpec) -> String {
        let input = names.input(useCase)
        let fields = fields(names, useCase)
        let pathNames = Set(useCase.input?.path.map(\.name) ?? [])
        var out = "import Foundation\n\n"
        out += "/// What `\(useCase.route)` (\(useCase.name)) takes, checked against the spec's rules.\n"
        out += "public struct \(input): Hashable, Sendable {\n"
        var parameters: [String] = []
        for member in authMembers(useCase) {
            out += "    /// \(member.doc)\n    public let \(member.name): \(member.type)\n"
            parameters.append("\(member.name): \(member.type)")
        }
        for field in fields {
            out += "    public let \(field.property): \(field.optionalValueType)\n"
            parameters.append("\(field.bare): \(field.optionalValueType)")
        }
        out += "\n" + DomainRenderer.initializer(parameters, indent: "    ") + "}\n"
        for field in fields { if let declaration = field.enumDeclaration { out += "\n" + declaration } }

        // The unchecked input: path parameters as read, everything else optional until checked.
        out += "\nextension \(input) {\n"
        out += "    /// The input as the client sent it, before it is checked: a `nil` is a value not sent.\n"
        out += "    public struct Unchecked: Hashable, Sendable {\n"
        var uncheckedParameters: [String] = []
        for member in authMembers(useCase) {
            out += "        public var \(member.name): \(member.type)\n"
            uncheckedParameters.append("\(member.name): \(member.type)")
        }
        for field in fields {
            let type = field.swift.inputType + (pathNames.contains(field.name) ? "" : "?")
            out += "        public var \(field.property): \(type)\n"
            uncheckedParameters.append("\(field.bare): \(type)" + (pathNames.contains(field.name) ? "" : " = nil"))
        }
        out += "\n" + DomainRenderer.initializer(uncheckedParameters, indent: "        ")
        out += "\n        /// The input, checked, with its defaults filled in.\n"
        out += "        /// - Throws: `ValidationError` listing every field that is missing or breaks the spec's rules.\n"
        out += "        public func validated() throws(ValidationError) -> \(input) {\n"
        let checked = fields.filter { DomainRenderer.hasRule($0.swift) }
        let presence = fields.filter { $0.required && !pathNames.contains($0.name) }
        let validates = !checked.isEmpty || !presence.isEmpty
        if validates { out += "            var errors = FieldErrors()\n" }
        for field in presence {
            out += "            errors.require(self.\(field.bare) != nil, \(swiftString(field.name)), \"is required\")\n"
        }
        for field in checked {
            let rule = "\(names.rules(useCase)).\(field.swift.bareProperty)"
            if pathNames.contains(field.name) {
                out += "            let \(field.bare) = \(rule)(self.\(field.bare), into: &errors)\n"
            } else if let literal = inputDefault(field) {
                out += "            let \(field.bare) = \(rule)(self.\(field.bare) ?? \(literal), into: &errors)\n"
            } else {
                out += "            let \(field.bare) = self.\(field.bare).flatMap { \(rule)($0, into: &errors) }\n"
            }
        }
        if validates { out += "            try errors.throwIfAny()\n" }
        var arguments = authMembers(useCase).map { "\($0.name): \($0.name)" }
        for field in fields {
            let value: String
            if DomainRenderer.hasRule(field.swift) {
                value = field.bare + (field.spec.optional && field.spec.defaultValue == nil ? "" : "!")
            } else if pathNames.contains(field.name) || (field.spec.optional && field.spec.defaultValue == nil) {
                value = "self.\(field.bare)"
            } else if let literal = inputDefault(field) {
                value = "self.\(field.bare) ?? \(literal)"
            } else {
                value = "self.\(field.bare)!"
            }
            arguments.append("\(field.bare): \(value)")
        }
        out += "            return \(input)(\n" + arguments.map { "                " + $0 }.joined(separator: ",\n") + "\n            )\n"
        out += "        }\n    }\n}\n"
        if !checked.isEmpty {
            out += "\n/// The spec's rules for the input of `\(useCase.name)`.\n"
            out += "enum \(names.rules(useCase)) {\n" + checked.map { DomainRenderer.rule($0.swift) }.joined(separator: "\n") + "}\n"
        }

        out += "\n/// What `\(useCase.name)` answers.\n"
        out += "public enum \(names.outcome(useCase)): Hashable, Sendable {\n"
        var enums: [String] = []
        for outcome in useCase.outcomes {
            let name = SceneNames.identifier(Names.member(outcome.name))
            switch outcome.body {
            case .none: out += "    case \(name)\n"
            case .entity: out += "    case \(name)(\(names.entity))\n"
            case .model(let type): out += "    case \(name)(\(type))\n"
            case .page(let type): out += "    case \(name)(Page<\(type)>)\n"
            case .fields(let specs):
                let members = TypedField.list(specs, prefix: names.outcomeFieldPrefix(useCase, outcome))
                out += "    case \(name)(\(members.map { "\($0.bare): \($0.optionalValueType)" }.joined(separator: ", ")))\n"
                enums += members.compactMap(\.enumDeclaration)
            }
        }
        out += "}\n"
        return out + enums.map { "\n" + $0 }.joined()
    }

    /// A field's default as a Swift literal of its input type (an enum's raw value).
    static func inputDefault(_ field: TypedField) -> String? {
        switch field.spec.defaultValue {
        case nil, .now: return nil
        case .int(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .string(let value): return swiftString(value)
        }
    }

    /// The once-file: the use case's signature and a marked place for its logic.
    static func once(_ names: SceneNames, _ useCase: UseCaseSpec) -> String {
        var out = "import Domain\nimport Foundation\n\n"
        out += "extension \(names.useCase) {\n"
        out += "    /// `\(useCase.route)` (auth: \(useCase.auth.rawValue))."
        if !useCase.gateways.isEmpty {
            let properties = names.spec.gateways.filter { useCase.gateways.contains($0.name) }.map { "`\(names.gatewayProperty($0))`" }
            out += " Gateways: \(properties.joined(separator: ", "))."
        }
        out += "\n    /// - Throws: `NotImplemented` until its logic is written.\n"
        out += "    public func \(names.method(useCase))(_ input: \(names.input(useCase))) async throws -> \(names.outcome(useCase)) {\n"
        let cases = useCase.outcomes.map { outcome -> String in
            let name = "." + Names.member(outcome.name)
            switch outcome.body {
            case .none: return name
            case .entity: return name + "(\(names.entity))"
            case .model(let type): return name + "(\(type))"
            case .page(let type): return name + "(Page<\(type)>)"
            case .fields(let fields): return name + "(" + fields.map { Names.member($0.name) + ":" }.joined() + ")"
            }
        }
        out += "        // scenegen: write this use case here (this file is yours; scenegen never touches it again).\n"
        out += "        // Answer one of the outcomes (a changed spec that no longer fits fails to compile here):\n"
        out += cases.map { "        //   \($0)\n" }.joined()
        out += "        throw NotImplemented(operation: \(swiftString("\(names.scene).\(useCase.name)")))\n"
        out += "    }\n}\n"
        return out
    }
}
