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
        if let max = useCase.input?.rawBodyMax {
            members.append(
                (
                    "rawBody", "[UInt8]", "The request's body as it came, unparsed (at most \(max) bytes).",
                    "try await RequestParsing.rawBody(request, max: \(max))"
                ))
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
        let objects = (useCase.input?.objects ?? []).map(InputObject.init)
        let pathNames = Set(useCase.input?.path.map(\.name) ?? [])
        var out = CodeWriter()
        out.lines(["import Foundation", ""])
        out.doc("What `\(useCase.route)` (\(useCase.name)) takes, checked against the spec's rules.")
        out.block("public struct \(input): Hashable, Sendable") { out in
            var parameters: [String] = []
            for member in authMembers(useCase) {
                out.doc(member.doc)
                out.line("public let \(member.name): \(member.type)")
                parameters.append("\(member.name): \(member.type)")
            }
            for field in fields {
                out.line("public let \(field.property): \(field.inputValueType)")
                parameters.append("\(field.bare): \(field.inputValueType)")
            }
            for object in objects {
                out.line("public let \(object.property): \(object.valueType)")
                parameters.append("\(object.bare): \(object.valueType)")
            }
            out.blank()
            DomainRenderer.initializer(parameters, into: &out)
        }
        DomainRenderer.enumerations(fields.compactMap(\.enumDeclaration), into: &out)

        // The unchecked input: path parameters as read, everything else optional until checked.
        out.blank()
        out.block("extension \(input)") { out in
            out.doc("The input as the client sent it, before it is checked: a `nil` is a value not sent.")
            out.block("public struct Unchecked: Hashable, Sendable") { out in
                var parameters: [String] = []
                for member in authMembers(useCase) {
                    out.line("public var \(member.name): \(member.type)")
                    parameters.append("\(member.name): \(member.type)")
                }
                for field in fields {
                    let type = field.uncheckedType + (pathNames.contains(field.name) ? "" : "?")
                    out.line("public var \(field.property): \(type)")
                    parameters.append("\(field.bare): \(type)" + (pathNames.contains(field.name) ? "" : " = nil"))
                }
                for object in objects {
                    out.line("public var \(object.property): \(object.uncheckedType)?")
                    parameters.append("\(object.bare): \(object.uncheckedType)? = nil")
                }
                out.blank()
                DomainRenderer.initializer(parameters, into: &out)
                out.blank()
                // An input with nothing to check cannot be refused: its `validated()` does not throw.
                let checks = hasChecks(names, useCase)
                out.doc(
                    "The input, checked, with its defaults filled in."
                        + (checks ? "\n- Throws: `ValidationError` listing every field that is missing or breaks the spec's rules." : ""))
                out.block("public func validated()\(checks ? " throws(ValidationError)" : "") -> \(input)") {
                    validation(names, useCase, into: &$0)
                }
            }
        }
        let checked = fields.filter(\.hasInputRule)
        if !checked.isEmpty || !objects.isEmpty {
            out.blank()
            out.doc("The spec's rules for the input of `\(useCase.name)`.")
            out.block("enum \(names.rules(useCase))") { out in
                DomainRenderer.inputRules(of: checked, into: &out)
                for object in objects {
                    if !checked.isEmpty || object.spec != objects.first?.spec { out.blank() }
                    InputObjectRenderer.rule(object, into: &out)
                }
            }
        }
        for object in objects { InputObjectRenderer.declaration(object, useCase: useCase, into: &out) }

        out.blank()
        out.doc("What `\(useCase.name)` answers.")
        var members: [TypedField] = []
        out.block("public enum \(names.outcome(useCase)): Hashable, Sendable") { out in
            for outcome in useCase.outcomes {
                let name = SceneNames.identifier(Names.member(outcome.name))
                switch outcome.body {
                case .none where outcome.logicErrors: out.line("case \(name)(errors: [FieldError])")
                case .none: out.line("case \(name)")
                case .entity: out.line("case \(name)(\(names.entity))")
                case .model(let type): out.line("case \(name)(\(type))")
                case .page(let type): out.line("case \(name)(Page<\(type)>)")
                case .fields(let specs):
                    let fields = TypedField.list(specs, prefix: names.outcomeFieldPrefix(useCase, outcome))
                    let errors = outcome.logicErrors ? ["errors: [FieldError]"] : []
                    out.line("case \(name)(\((fields.map { "\($0.bare): \($0.optionalValueType)" } + errors).joined(separator: ", ")))")
                    members += fields
                }
            }
        }
        DomainRenderer.enumerations(members.compactMap(\.enumDeclaration), into: &out)
        return out.text
    }

    /// Whether the input has anything to check (a rule, a required field the client sends, an
    /// object): only then can `validated()` refuse it.
    static func hasChecks(_ names: SceneNames, _ useCase: UseCaseSpec) -> Bool {
        let pathNames = Set(useCase.input?.path.map(\.name) ?? [])
        return fields(names, useCase).contains { $0.hasInputRule || ($0.required && !pathNames.contains($0.name)) }
            || !(useCase.input?.objects.isEmpty ?? true)
    }

    /// The body of `Unchecked.validated()`: every missing field and every broken rule, then the input.
    private static func validation(_ names: SceneNames, _ useCase: UseCaseSpec, into out: inout CodeWriter) {
        validation(
            of: names.input(useCase), fields: fields(names, useCase), objects: (useCase.input?.objects ?? []).map(InputObject.init),
            pathNames: Set(useCase.input?.path.map(\.name) ?? []), carried: authMembers(useCase).map(\.name),
            rules: names.rules(useCase), into: &out)
    }

    /// `validated()` of an input or of an object in one: `carried` members pass as they are.
    static func validation(
        of input: String, fields: [TypedField], objects: [InputObject], pathNames: Set<String>, carried: [String], rules: String,
        into out: inout CodeWriter
    ) {
        let checked = fields.filter(\.hasInputRule)
        let presence = fields.filter { $0.required && !pathNames.contains($0.name) }
        let validates = !checked.isEmpty || !presence.isEmpty || !objects.isEmpty
        if validates { out.line("var errors = FieldErrors()") }
        for field in presence {
            out.line("errors.require(self.\(field.bare) != nil, \(swiftString(field.name)), \"is required\")")
        }
        for object in objects where object.spec.required {
            out.line("errors.require(self.\(object.bare) != nil, \(swiftString(object.spec.name)), \"is required\")")
        }
        for field in checked {
            let rule = "\(rules).\(field.swift.bareProperty)"
            if pathNames.contains(field.name) {
                out.line("let \(field.bare) = \(rule)(self.\(field.bare), into: &errors)")
            } else if let literal = inputDefault(field) {
                out.line("let \(field.bare) = \(rule)(self.\(field.bare) ?? \(literal), into: &errors)")
            } else {
                out.line("let \(field.bare) = self.\(field.bare).flatMap { \(rule)($0, into: &errors) }")
            }
        }
        for object in objects {
            out.line("let \(object.bare) = self.\(object.bare).flatMap { \(rules).\(object.bare)($0, into: &errors) }")
        }
        if validates { out.line("try errors.throwIfAny()") }
        var arguments = carried.map { "\($0): \($0)" }
        for field in fields {
            let value: String
            if field.hasInputRule {
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
        for object in objects { arguments.append("\(object.bare): \(object.bare)" + (object.spec.required ? "!" : "")) }
        out.list("return \(input)(", arguments)
    }

    /// A field's default as a Swift literal of its input type (an enum's raw value).
    static func inputDefault(_ field: TypedField) -> String? {
        if field.spec.map { return "[:]" }
        switch field.spec.defaultValue {
        case nil, .now: return nil
        case .int(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .string(let value): return swiftString(value)
        }
    }

    /// The once-file: the use case's signature and a marked place for its logic.
    static func once(_ names: SceneNames, _ useCase: UseCaseSpec) -> String {
        var doc = "`\(useCase.route)` (auth: \(useCase.auth.rawValue))."
        if !useCase.gateways.isEmpty {
            let properties = names.spec.gateways.filter { useCase.gateways.contains($0.name) }.map { "`\(names.gatewayProperty($0))`" }
            doc += " Gateways: \(properties.joined(separator: ", "))."
        }
        let cases = useCase.outcomes.map { outcome -> String in
            let name = "." + Names.member(outcome.name)
            switch outcome.body {
            case .entity: return name + "(\(names.entity))"
            case .model(let type): return name + "(\(type))"
            case .page(let type): return name + "(Page<\(type)>)"
            case .fields(let fields):
                return name + "(" + (fields.map { Names.member($0.name) + ":" } + (outcome.logicErrors ? ["errors:"] : [])).joined() + ")"
            case .none where outcome.logicErrors: return name + "(errors:)"
            case .none: return name
            }
        }
        var out = CodeWriter()
        out.lines(["import Domain", "import Foundation", ""])
        out.block("extension \(names.useCase)") { out in
            if useCase.input?.upload?.precheck == true {
                out.doc(
                    "Whether the upload of `\(useCase.route)` may start, asked before its body is read: an\noutcome refuses it, `nil` lets it go on.\n- Throws: `NotImplemented` until its logic is written."
                )
                out.block(
                    "public func \(names.precheck(useCase))(_ input: \(names.input(useCase))) async throws -> \(names.outcome(useCase))?"
                ) { out in
                    out.line("// scenegen: check here what refuses the upload before it is read (this file is yours).")
                    out.line("throw NotImplemented(operation: \(swiftString("\(names.scene).\(useCase.name)")))")
                }
                out.blank()
            }
            out.doc(doc + "\n- Throws: `NotImplemented` until its logic is written.")
            let upload = useCase.input?.upload.map { _ in ", upload: UploadedFile" } ?? ""
            let background = useCase.background ? ", background: any BackgroundWork" : ""
            out.block(
                "public func \(names.method(useCase))(_ input: \(names.input(useCase))\(upload)\(background)) async throws -> \(names.outcome(useCase))"
            ) {
                out in
                out.line("// scenegen: write this use case here (this file is yours; scenegen never touches it again).")
                out.line("// Answer one of the outcomes (a changed spec that no longer fits fails to compile here):")
                out.lines(cases.map { "//   \($0)" })
                out.line("throw NotImplemented(operation: \(swiftString("\(names.scene).\(useCase.name)")))")
            }
        }
        return out.text
    }
}
