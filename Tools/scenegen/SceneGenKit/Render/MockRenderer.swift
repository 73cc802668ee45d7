/// A Sendable mock for every port of a scene: it records each call with its arguments and
/// answers what the test set (an unstubbed call fails the test).
enum MockRenderer {
    struct Method {
        let name: String
        /// `(label, parameter, type)`: `label` is the argument label (`_` for none).
        let parameters: [(label: String, name: String, type: String)]
        let result: String
    }

    static func storeMethods(_ names: SceneNames) -> [Method] {
        let e = names.entity
        let owner: [(String, String, String)] = names.scope.map { ($0.label, $0.label, names.scopeType($0.label)) }
        var methods: [Method] = []
        if names.creates { methods.append(Method(name: "insert", parameters: [("_", names.entityVariable, e)], result: e)) }
        if names.lists {
            methods.append(
                Method(
                    name: "page",
                    parameters: owner + (names.filterFields.isEmpty ? [] : [("matching", "filter", names.filter)])
                        + [("after", "cursor", "PageCursor?"), ("limit", "limit", "Int")],
                    result: "[\(e)]"))
        }
        if names.gets { methods.append(Method(name: "find", parameters: owner + [("id", "id", "UUID")], result: "\(e)?")) }
        if names.updates {
            methods.append(
                Method(name: "update", parameters: owner + [("id", "id", "UUID"), ("with", "patch", names.patch)], result: "\(e)?"))
        }
        if names.replaces {
            methods.append(
                Method(name: "replace", parameters: owner + [("id", "id", "UUID"), ("with", names.entityVariable, e)], result: "\(e)?"))
        }
        if names.deletes { methods.append(Method(name: "delete", parameters: owner + [("id", "id", "UUID")], result: "Bool")) }
        return methods
    }

    static func mocks(_ names: SceneNames) -> String {
        var out = CodeWriter()
        out.lines(["import Domain", "import Foundation", "import MockSupport"])
        mock(name: "Mock\(names.store)", port: names.store, methods: storeMethods(names), into: &out)
        for gateway in names.spec.gateways {
            mock(
                name: "Mock\(names.gatewayPort(gateway))", port: names.gatewayPort(gateway),
                methods: HTTPGatewayRenderer.mockMethods(names, gateway), into: &out)
        }
        return out.text
    }

    private static func mock(name: String, port: String, methods: [Method], into out: inout CodeWriter) {
        out.blank()
        out.doc("A `\(port)` that answers what the test set and records every call.")
        out.block("final class \(name): \(port), Sendable") { out in
            out.block("enum Call: Equatable, Sendable") { out in
                for method in methods {
                    let types = method.parameters.map(\.type).joined(separator: ", ")
                    out.line("case \(method.name)" + (types.isEmpty ? "" : "(\(types))"))
                }
            }
            out.blank()
            out.block("struct Stubs: Sendable") { out in
                for method in methods {
                    out.line(
                        "var \(method.name): (@Sendable (\(method.parameters.map(\.type).joined(separator: ", "))) throws -> \(method.result))?"
                    )
                }
            }
            out.blank()
            out.line("private let recorder: MockRecorder<Call, Stubs>")
            out.blank()
            out.block("init(_ configure: (inout Stubs) -> Void = { _ in })") { $0.line("recorder = MockRecorder(Stubs(), configure)") }
            out.blank()
            out.line("var calls: [Call] { recorder.calls }")
            for method in methods {
                let signature = method.parameters.map { ($0.label == $0.name ? $0.name : "\($0.label) \($0.name)") + ": \($0.type)" }
                let arguments = method.parameters.map(\.name).joined(separator: ", ")
                let call = "." + method.name + (arguments.isEmpty ? "" : "(\(arguments))")
                out.blank()
                out.block("func \(method.name)(\(signature.joined(separator: ", "))) async throws -> \(method.result)") { out in
                    out.line("try recorder.record(\(call), \\.\(method.name))(\(arguments))")
                }
            }
        }
    }
}
