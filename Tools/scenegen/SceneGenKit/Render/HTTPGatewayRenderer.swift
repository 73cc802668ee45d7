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
        var out = "import Foundation\n\n"
        out += "/// The \(gateway.name) API (base URL from `\(gateway.baseURLEnv)`), for the scene's custom use cases.\n"
        out += "/// Every method throws `ExternalServiceError` when the API cannot be reached in time, is not\n"
        out += "/// configured, or answers what the spec does not describe.\n"
        out += "public protocol \(names.gatewayPort(gateway)): Sendable {\n"
        out += gateway.operations.map { operation in
            var doc = "    /// `\(operation.route)` under the base URL.\n"
            if !operation.errors.isEmpty {
                doc += "    /// - Throws: `\(names.operationType(gateway, operation, "Error"))`, `ExternalServiceError`.\n"
            }
            return doc + "    \(signature(names, gateway, operation))\n"
        }.joined(separator: "\n")
        out += "}\n"
        for operation in gateway.operations {
            for (suffix, fields, what) in [
                ("Input", input(names, gateway, operation), "sends"), ("Output", output(names, gateway, operation), "answers"),
            ] where !fields.isEmpty {
                let type = names.operationType(gateway, operation, suffix)
                out += "\n/// What `\(names.operationMethod(operation))` \(what).\n"
                out += "public struct \(type): Hashable, Sendable {\n"
                out += fields.map { "    public let \($0.property): \($0.optionalValueType)\n" }.joined()
                out += "\n" + DomainRenderer.initializer(fields.map { "\($0.bare): \($0.optionalValueType)" }, indent: "    ") + "}\n"
                for field in fields { if let declaration = field.enumDeclaration { out += "\n" + declaration } }
            }
            if !operation.errors.isEmpty {
                out += "\n/// The refusals of `\(names.operationMethod(operation))` the spec names.\n"
                out += "public enum \(names.operationType(gateway, operation, "Error")): ExternalServiceRefusal, Hashable, Sendable {\n"
                out += operation.errors.map { "    case \(SceneNames.identifier(Names.member($0.name)))\n" }.joined()
                out += "\n    public var service: String { \(swiftString(gateway.name)) }\n}\n"
            }
        }
        return out
    }

    /// The wire type of a gateway field and the expression of `value` (a domain value) as it.
    private static func encoded(_ field: TypedField, _ value: String) -> (type: String, expression: String) {
        let optional = field.spec.optional
        let chain = optional ? "\(value)?" : value
        let (type, expression): (String, String)
        switch field.spec.type {
        case .uuid: (type, expression) = ("String", "\(chain).uuidString.lowercased()")
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
                ? "try \(value).map { try api.read(UUID(uuidString: $0), \(what)) }" : "try api.read(UUID(uuidString: \(value)), \(what))"
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

    /// A `Codable` struct of wire members with snake_case keys.
    private static func wireStruct(_ name: String, _ conformance: String, _ fields: [TypedField], doc: String) -> String {
        var out = "\n/// \(doc)\nprivate struct \(name): \(conformance) {\n"
        out += fields.map { "    let \($0.property): \(encoded($0, "").type)\n" }.joined()
        out += "\n    enum CodingKeys: String, CodingKey {\n"
        for field in fields {
            out += "        case \(field.property)" + (field.bare == field.name ? "\n" : " = \(swiftString(field.name))\n")
        }
        return out + "    }\n"
    }

    /// The path under the base URL with each `{parameter}` filled from `input`, percent-encoded.
    private static func path(_ operation: GatewayOperationSpec, _ fields: [TypedField]) -> String {
        let segments = operation.route.segments.map { segment -> String in
            guard segment.hasPrefix("{"), let field = fields.first(where: { "{\($0.name)}" == segment }) else { return segment }
            let value: String
            switch field.spec.type {
            case .uuid: value = "input.\(field.property).uuidString.lowercased()"
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
        var out = "import Domain\nimport Foundation\n\n"
        out += "/// `\(port)` over HTTP: calls go to the base URL in `\(gateway.baseURLEnv)` as JSON with snake_case\n"
        out += "/// keys, each within `ExternalHTTPAPI`'s deadline.\n"
        out += "public struct HTTP\(port): \(port) {\n"
        out += "    let api: ExternalHTTPAPI\n\n"
        out += "    /// - Parameter baseURL: the value of `\(gateway.baseURLEnv)`; `nil` when it is unset (every call then\n"
        out += "    ///   throws `ExternalServiceError`).\n"
        out += "    public init(baseURL: String?) {\n"
        out += "        api = ExternalHTTPAPI(service: \(swiftString(gateway.name)), baseURL: baseURL)\n    }\n"
        var wire = ""
        for operation in gateway.operations {
            let inputFields = input(names, gateway, operation)
            let outputFields = output(names, gateway, operation)
            let bodyFields = inputFields.filter { !operation.route.parameters.contains($0.name) }
            let request = names.operationType(gateway, operation, "Request")
            let answer = names.operationType(gateway, operation, "Answer")
            out += "\n    public \(signature(names, gateway, operation)) {\n"
            let method = swiftString(operation.route.method)
            if bodyFields.isEmpty {
                out += "        let answer = try await api.send(\(method), \(path(operation, inputFields)))\n"
            } else {
                out += "        let answer = try await api.send(\(method), \(path(operation, inputFields)), json: \(request)(input))\n"
                wire += wireStruct(request, "Encodable", bodyFields, doc: "The JSON body of `\(operation.route)`.")
                wire += "\n    init(_ input: \(names.operationType(gateway, operation, "Input"))) {\n"
                for field in bodyFields { wire += "        \(field.bare) = \(encoded(field, "input.\(field.property)").expression)\n" }
                wire += "    }\n}\n"
            }
            out += "        switch answer.status {\n"
            if outputFields.isEmpty {
                out += "        case 200..<300: return\n"
            } else {
                out += "        case 200..<300: return try api.decode(\(answer).self, from: answer).output(api)\n"
                wire += wireStruct(answer, "Decodable", outputFields, doc: "The JSON answer of `\(operation.route)`.")
                wire += "\n    /// - Throws: `ExternalServiceError` for a member the domain cannot hold.\n"
                wire += "    func output(_ api: ExternalHTTPAPI) throws -> \(names.operationType(gateway, operation, "Output")) {\n"
                wire += "        \(names.operationType(gateway, operation, "Output"))(\n"
                wire += outputFields.map { "            \($0.bare): \(decoded($0, $0.property))" }.joined(separator: ",\n")
                wire += "\n        )\n    }\n}\n"
            }
            for error in operation.errors {
                out +=
                    "        case \(error.status): throw \(names.operationType(gateway, operation, "Error")).\(SceneNames.identifier(Names.member(error.name)))\n"
            }
            out += "        default: throw api.unexpected(answer)\n        }\n    }\n"
        }
        return out + "}\n" + wire
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
