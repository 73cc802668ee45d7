/// An http gateway with typed operations: the Domain port (an input and output struct and a
/// typed error per operation), its implementation over `ExternalHTTPAPI` (JSON with snake_case
/// keys, a deadline on every call), and the mock methods.
enum HTTPGatewayRenderer {
    static func input(_ names: SceneNames, _ gateway: GatewaySpec, _ operation: GatewayOperationSpec) -> [TypedField] {
        TypedField.list(operation.input, prefix: names.operationType(gateway, operation, "Input"))
    }

    static func output(_ names: SceneNames, _ gateway: GatewaySpec, _ operation: GatewayOperationSpec) -> [TypedField] {
        TypedField.list(operation.output, prefix: names.operationType(gateway, operation, "Output"))
    }

    /// `func name(_ input: I) async throws -> O`, without input or result when there is none.
    static func signature(_ names: SceneNames, _ gateway: GatewaySpec, _ operation: GatewayOperationSpec) -> String {
        let parameter = operation.input.isEmpty ? "" : "_ input: \(names.operationType(gateway, operation, "Input"))"
        let result = operation.output.isEmpty ? "" : " -> \(names.operationType(gateway, operation, "Output"))"
        return "func \(names.operationMethod(operation))(\(parameter)) async throws\(result)"
    }

    /// `Sources/Domain/<Scene>/<Gateway>Gateway.swift`.
    static func port(_ names: SceneNames, _ gateway: GatewaySpec) -> String {
        var out = CodeWriter()
        out.lines(["import Foundation", ""])
        out.doc(
            "The \(gateway.name) API (base URL from `\(gateway.baseURLEnv)`), for the scene's custom use cases.\n"
                + "Every method throws `ExternalServiceError` when the API cannot be reached in time, is not\n"
                + "configured, or answers what the spec does not describe.")
        out.block("public protocol \(names.gatewayPort(gateway)): Sendable") { out in
            for (index, operation) in gateway.operations.enumerated() {
                if index > 0 { out.blank() }
                out.doc("`\(operation.route)` under the base URL.")
                if !operation.errors.isEmpty {
                    out.doc("- Throws: `\(names.operationType(gateway, operation, "Error"))`, `ExternalServiceError`.")
                }
                out.line(signature(names, gateway, operation))
            }
        }
        for operation in gateway.operations {
            for (suffix, fields, what) in [
                ("Input", input(names, gateway, operation), "sends"), ("Output", output(names, gateway, operation), "answers"),
            ] where !fields.isEmpty {
                out.blank()
                out.doc("What `\(names.operationMethod(operation))` \(what).")
                DomainRenderer.valueStruct(
                    names.operationType(gateway, operation, suffix), fields.map { "\($0.property): \($0.optionalValueType)" },
                    enums: fields.compactMap(\.enumDeclaration), into: &out)
            }
            if !operation.errors.isEmpty {
                out.blank()
                out.doc("The refusals of `\(names.operationMethod(operation))` the spec names.")
                out.block("public enum \(names.operationType(gateway, operation, "Error")): ExternalServiceRefusal, Hashable, Sendable") {
                    out in
                    out.lines(operation.errors.map { "case \(SceneNames.identifier(Names.member($0.name)))" })
                    out.blank()
                    out.line("public var service: String { \(swiftString(gateway.name)) }")
                }
            }
        }
        return out.text
    }

    /// The wire type of a gateway field and the expression of `value` (a domain value) as it.
    private static func encoded(_ field: TypedField, _ value: String) -> (type: String, expression: String) {
        let optional = field.spec.optional
        let chain = optional ? "\(value)?" : value
        let (type, expression): (String, String)
        switch field.spec.type {
        case .uuid: (type, expression) = ("String", "\(chain).lowercasedText")
        case .money: (type, expression) = ("ExternalMoney", optional ? "\(value).map(ExternalMoney.init)" : "ExternalMoney(\(value))")
        case .enumeration: (type, expression) = ("String", "\(chain).rawValue")
        default: (type, expression) = (field.swift.valueType, value)
        }
        return (type + (optional ? "?" : ""), expression)
    }

    /// The expression turning the decoded wire member `value` into the domain's type.
    private static func decoded(_ field: TypedField, _ value: String) -> String {
        let what = swiftString(field.name)
        switch field.spec.type {
        case .uuid:
            return field.spec.optional
                ? "try \(value).map { try api.read(UUID(text: $0), \(what)) }" : "try api.read(UUID(text: \(value)), \(what))"
        case .money:
            return field.spec.optional ? "try \(value).map { try $0.money(api, \(what)) }" : "try \(value).money(api, \(what))"
        case .enumeration:
            let type = field.enumType
            return field.spec.optional
                ? "try \(value).map { try api.read(\(type)(rawValue: $0), \(what)) }" : "try api.read(\(type)(rawValue: \(value)), \(what))"
        default:
            return value
        }
    }

    /// A `Codable` struct of wire members with snake_case keys; `body` writes the rest of it.
    private static func wireStruct(
        _ name: String, _ conformance: String, _ fields: [TypedField], doc: String, into out: inout CodeWriter,
        _ body: (inout CodeWriter) -> Void
    ) {
        out.blank()
        out.doc(doc)
        out.block("private struct \(name): \(conformance)") { out in
            out.lines(fields.map { "let \($0.property): \(encoded($0, "").type)" })
            WiringRenderer.codingKeys(fields.map { ($0.property, $0.name) }, into: &out)
            body(&out)
        }
    }

    /// The path under the base URL with each `{parameter}` filled from `input`, percent-encoded.
    private static func path(_ operation: GatewayOperationSpec, _ fields: [TypedField]) -> String {
        let segments = operation.route.segments.map { segment -> String in
            guard segment.hasPrefix("{"), let field = fields.first(where: { "{\($0.name)}" == segment }) else { return segment }
            let value: String
            switch field.spec.type {
            case .uuid: value = "input.\(field.property).lowercasedText"
            case .enumeration: value = "input.\(field.property).rawValue"
            case .string: value = "input.\(field.property)"
            default: value = "String(input.\(field.property))"
            }
            return "\\(ExternalHTTPAPI.segment(\(value)))"
        }
        return "\"/" + segments.joined(separator: "/") + "\""
    }

    /// `Sources/Gateway/<Scene>/HTTP<Gateway>Gateway.swift`.
    static func http(_ names: SceneNames, _ gateway: GatewaySpec) -> String {
        let port = names.gatewayPort(gateway)
        var out = CodeWriter()
        var wire = CodeWriter()
        out.lines(["import Domain", "import Foundation", ""])
        out.doc(
            "`\(port)` over HTTP: calls go to the base URL in `\(gateway.baseURLEnv)` as JSON with snake_case\n"
                + "keys, each within `ExternalHTTPAPI`'s deadline.")
        out.block("public struct HTTP\(port): \(port)") { out in
            out.line("let api: ExternalHTTPAPI")
            out.blank()
            out.doc(
                "- Parameter baseURL: the value of `\(gateway.baseURLEnv)`; `nil` when it is unset (every call then\n"
                    + "  throws `ExternalServiceError`).")
            out.block("public init(baseURL: String?)") {
                $0.line("api = ExternalHTTPAPI(service: \(swiftString(gateway.name)), baseURL: baseURL)")
            }
            for operation in gateway.operations {
                out.blank()
                out.block("public \(signature(names, gateway, operation))") { call(names, gateway, operation, into: &$0, wire: &wire) }
            }
        }
        return out.text + wire.text
    }

    /// The body of an operation's method, and the wire types of its request and answer.
    private static func call(
        _ names: SceneNames, _ gateway: GatewaySpec, _ operation: GatewayOperationSpec, into out: inout CodeWriter,
        wire: inout CodeWriter
    ) {
        let inputFields = input(names, gateway, operation)
        let outputFields = output(names, gateway, operation)
        let bodyFields = inputFields.filter { !operation.route.parameters.contains($0.name) }
        let request = names.operationType(gateway, operation, "Request")
        let answer = names.operationType(gateway, operation, "Answer")
        let method = swiftString(operation.route.method)
        if bodyFields.isEmpty {
            out.line("let answer = try await api.send(\(method), \(path(operation, inputFields)))")
        } else {
            out.line("let answer = try await api.send(\(method), \(path(operation, inputFields)), json: \(request)(input))")
            wireStruct(request, "Encodable", bodyFields, doc: "The JSON body of `\(operation.route)`.", into: &wire) { wire in
                wire.blank()
                wire.block("init(_ input: \(names.operationType(gateway, operation, "Input")))") { wire in
                    wire.lines(bodyFields.map { "\($0.bare) = \(encoded($0, "input.\($0.property)").expression)" })
                }
            }
        }
        // Swift's style: the cases at the depth of their `switch`.
        out.line("switch answer.status {")
        if outputFields.isEmpty {
            out.line("case 200..<300: return")
        } else {
            out.line("case 200..<300: return try api.decode(\(answer).self, from: answer).output(api)")
            // (`try` covers the decoding; `output` throws only when a member can be refused.)
            let output = names.operationType(gateway, operation, "Output")
            // Only members the domain may refuse (a UUID, money, an enum) make reading them throw.
            let members = outputFields.map { "\($0.bare): \(decoded($0, $0.property))" }
            let throwing = members.contains { $0.contains("try ") }
            wireStruct(answer, "Decodable", outputFields, doc: "The JSON answer of `\(operation.route)`.", into: &wire) { wire in
                wire.blank()
                if throwing { wire.doc("- Throws: `ExternalServiceError` for a member the domain cannot hold.") }
                wire.block("func output(_ api: ExternalHTTPAPI)\(throwing ? " throws" : "") -> \(output)") { wire in
                    wire.list("\(output)(", members)
                }
            }
        }
        for error in operation.errors {
            out.line(
                "case \(error.status): throw \(names.operationType(gateway, operation, "Error")).\(SceneNames.identifier(Names.member(error.name)))"
            )
        }
        out.line("default: throw api.unexpected(answer)")
        out.line("}")
    }

    /// The mock's methods, one per operation.
    static func mockMethods(_ names: SceneNames, _ gateway: GatewaySpec) -> [MockRenderer.Method] {
        gateway.operations.map { operation in
            MockRenderer.Method(
                name: Names.member(operation.name),
                parameters: operation.input.isEmpty ? [] : [("_", "input", names.operationType(gateway, operation, "Input"))],
                result: operation.output.isEmpty ? "Void" : names.operationType(gateway, operation, "Output"))
        }
    }
}
