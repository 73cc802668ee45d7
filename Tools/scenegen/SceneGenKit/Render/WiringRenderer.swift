/// The scene container (`live` and the initializer tests fill with mocks), the HTTP routes with
/// their request bodies, and the registry that wires every generated scene into the app.
enum WiringRenderer {
    static func container(_ names: SceneNames) -> String {
        let stored = containerProperties(names)
        var out = "import Domain\nimport UseCase\n\n"
        out += "/// The \(names.scene) scene's dependencies. Tests fill `init` with mocks; `live` (LiveScenes) wires"
        out += names.spec.gateways.isEmpty ? " PostgreSQL.\n" : "\n/// PostgreSQL and the HTTP APIs the spec names.\n"
        out += "public struct \(names.container): Sendable {\n"
        out += stored.map { "    public let \($0)\n" }.joined()
        out += "\n" + DomainRenderer.initializer(stored, indent: "    ") + "\n"
        let arguments = stored.map { String($0.prefix { $0 != ":" }) }.map { "\($0): \($0)" }
        out += "    public var useCase: \(names.useCase) {\n"
        out += "        \(names.useCase)(\(arguments.joined(separator: ", ")))\n    }\n}\n"
        return out
    }

    /// `XContainer.live`: the production graph, in LiveScenes so the container itself (and the
    /// unit tests that fill it) need no gateway.
    static func live(_ names: SceneNames) -> String {
        var live = names.spec.entity == nil ? [] : ["store: \(names.postgresStore)(database: resources.pool)"]
        live += names.spec.ports.map { "\(names.portProperty($0)): live\(Names.typeName($0.name))(resources)" }
        for gateway in names.spec.gateways {
            live.append(
                "\(names.gatewayProperty(gateway)): HTTP\(names.gatewayPort(gateway))(baseURL: resources.config.environment[\(swiftString(gateway.baseURLEnv))])"
            )
        }
        live.append("system: resources.system")
        var out = "import Gateway\nimport Scenes\n\n"
        out += "/// The production graph of `\(names.container)`.\n"
        out += "extension \(names.container) {\n"
        out += "    public static func live(_ resources: AppResources) -> \(names.container) {\n"
        out += "        \(names.container)(\n" + live.map { "            " + $0 }.joined(separator: ",\n") + "\n        )\n    }\n}\n"
        return out
    }

    /// The scene's dependencies as `name: type`: its store, hand-written ports, gateways and
    /// clock; the container holds them and the use case takes them.
    static func containerProperties(_ names: SceneNames) -> [String] {
        var stored = names.spec.entity == nil ? [] : ["store: any \(names.store)"]
        stored += names.spec.ports.map { "\(names.portProperty($0)): \(names.portType($0))" }
        for gateway in names.spec.gateways {
            stored.append("\(names.gatewayProperty(gateway)): any \(names.gatewayPort(gateway))")
        }
        return stored + ["system: SystemContext"]
    }

    /// The once-file building each hand-written port for production (LiveScenes);
    /// `testableImports` follow the others, as the formatter wants them in a file people edit.
    static func livePorts(_ names: SceneNames, testableImports: String) -> String {
        var out = "import Domain\nimport Gateway\nimport Scenes\n" + testableImports + "\n"
        out += "/// The production implementations of the \(names.scene) scene's hand-written ports.\n"
        out += "extension \(names.container) {\n"
        out += names.spec.ports.map { port in
            "    /// The `\(names.portProperty(port))` port.\n"
                + "    static func live\(Names.typeName(port.name))(_ resources: AppResources) -> \(names.portType(port)) {\n"
                + "        // scenegen: build the production \(port.type) here (this file is yours; scenegen never touches it again).\n"
                + "        fatalError(\"\(names.container).live\(Names.typeName(port.name)) is not written yet\")\n"
                + "    }\n"
        }.joined(separator: "\n")
        return out + "}\n"
    }

    static func routes(_ names: SceneNames) -> String {
        let limited = names.spec.isRateLimited
        var out = "import Domain\nimport Foundation\nimport Hummingbird\nimport Presenter\nimport Scenes\n"
        out += limited ? "import UseCase\n\n" : "\n"
        out += "/// \(names.scene) routes: parse, call the use case, present"
        out += limited ? "; a rate-limited route is counted first.\n" : ".\n"
        out += "enum \(names.routes) {\n"
        out += "    static func register(on routers: SceneRouters, container: \(names.container)"
        out += (limited ? ", throttle: RequestThrottle" : "") + ") {\n"
        out += "        let useCase = container.useCase\n"
        for useCase in names.spec.useCases {
            out += "\n" + route(names, useCase)
        }
        out += "    }\n}\n"
        out += requests(names) + CustomUseCaseRenderer.bodies(names)
        return out
    }

    private static func route(_ names: SceneNames, _ useCase: UseCaseSpec) -> String {
        let group: String
        switch useCase.auth {
        case .public: group = "anyone"
        case .customer: group = "customer"
        case .admin: group = "admin"
        }
        let path = names.routerNames.path(useCase.route)
        let method = useCase.route.method.lowercased()
        let call = names.method(useCase)
        let owner = names.scopeArgument(useCase, toStore: false)
        var body: [String] = []
        if names.actsForOwner(useCase) && useCase.kind != .custom { body.append("let customerID = try context.requireCustomer()") }
        if let parent = names.parent, useCase.kind != .custom {
            let routed = names.routerNames.routedArgument(parent.name, in: useCase.route)
            body.append("let \(parent.bareProperty) = try RequestParsing.uuid(\(swiftString(parent.name)), in: context\(routed))")
        }
        if useCase.route.parameters.contains("id") && useCase.kind != .custom {
            body.append("let id = try RequestParsing.uuid(\"id\", in: context\(names.routerNames.routedArgument("id", in: useCase.route)))")
        }
        let presenter = names.presenter
        switch useCase.kind {
        case .create:
            body.append("let draft = try await RequestParsing.json(\(names.createRequest).self, from: request).draft()")
            body.append("return \(presenter).created(await outcome { try await useCase.\(call)(\(owner)draft) })")
        case .list:
            body.append("let limit = try RequestParsing.int(\"limit\", in: request)")
            body.append("let cursor = try RequestParsing.string(\"cursor\", in: request)")
            let filters = names.fields.filter { useCase.filters.contains($0.name) }
            for field in filters {
                body.append("let \(field.property) = try RequestParsing.string(\(swiftString(field.name)), in: request)")
            }
            let filterArguments = filters.map { ", \($0.bareProperty): \($0.property)" }.joined()
            body.append(
                "return \(presenter).page(await outcome { try await useCase.\(call)(\(owner)limit: limit, cursor: cursor\(filterArguments)) })"
            )
        case .get:
            body.append("return \(presenter).record(await outcome { try await useCase.\(call)(\(owner)id: id) })")
        case .update:
            body.append("let changes = try await RequestParsing.json(\(names.updateRequest).self, from: request).changes()")
            body.append("return \(presenter).record(await outcome { try await useCase.\(call)(\(owner)id: id, changes) })")
        case .delete:
            body.append("return \(presenter).deleted(await outcome { try await useCase.\(call)(\(owner)id: id) })")
        case .custom:
            body += CustomUseCaseRenderer.routeBody(names, useCase)
        }
        let input = useCase.input ?? CustomInputSpec(path: [], query: [], body: [])
        let usesRequest = [.create, .list, .update].contains(useCase.kind) || !(input.query + input.body).isEmpty || input.session
        let usesContext =
            names.actsForOwner(useCase) || (useCase.kind != .custom && !useCase.route.parameters.isEmpty)
            || useCase.route.parameters.contains("id") || (useCase.kind == .custom && (useCase.auth == .customer || !input.path.isEmpty))
            || useCase.rateLimit?.class.perCustomer == false
        var out = "        // \(useCase.route): \(useCase.name)\n"
        out +=
            "        routers.\(group).\(method)(\(swiftString(path))) { \(usesRequest ? "request" : "_"), \(usesContext ? "context" : "_") in\n"
        out += body.map { "            " + $0 + "\n" }.joined()
        out += "        }\n"
        return out
    }

    /// The JSON bodies of create and update, decoded with snake_case keys.
    private static func requests(_ names: SceneNames) -> String {
        var out = ""
        let writable = names.writable
        func wireType(_ field: SwiftField) -> String {
            switch field.field.type {
            case .money: return "MoneyRequest"
            case .timestamp: return "String"
            default: return field.inputType
            }
        }
        func convert(_ field: SwiftField, optional: Bool) -> String {
            switch field.field.type {
            case .money: return field.bareProperty + (optional ? "?.input" : ".input")
            case .timestamp:
                return "RequestParsing.timestamp(\(field.bareProperty), field: \(swiftString(field.name)))" + (optional ? "" : "!")
            default: return field.bareProperty
            }
        }
        func codingKeys() -> String {
            var keys = "\n    enum CodingKeys: String, CodingKey {\n"
            for field in writable {
                keys += "        case \(field.property)" + (field.bareProperty == field.name ? "\n" : " = \(swiftString(field.name))\n")
            }
            return keys + "    }\n"
        }
        let throwing = writable.contains { $0.field.type == .timestamp }
        if names.creates {
            out += "\n/// The body of `\(names.useCases(.create)[0].route)`.\n"
            out += "struct \(names.createRequest): Decodable {\n"
            for field in writable {
                out += "    let \(field.property): \(wireType(field))\(field.requiredOnCreate ? "" : "?")\n"
            }
            if !writable.isEmpty { out += codingKeys() }
            out += "\n    func draft() throws -> \(names.draft) {\n"
            let arguments = writable.map { "\($0.bareProperty): \(convert($0, optional: !$0.requiredOnCreate))" }
            out += "        \(throwing ? "try " : "")\(names.draft)(\(arguments.joined(separator: ", ")))\n    }\n}\n"
        }
        if names.updates {
            out += "\n/// The body of `\(names.useCases(.update)[0].route)`: every field optional; absent or null leaves it as it is.\n"
            out += "struct \(names.updateRequest): Decodable {\n"
            for field in writable { out += "    let \(field.property): \(wireType(field))?\n" }
            out += codingKeys()
            out += "\n    func changes() throws -> \(names.changes) {\n"
            let arguments = writable.map { "\($0.bareProperty): \(convert($0, optional: true))" }
            out += "        \(throwing ? "try " : "")\(names.changes)(\(arguments.joined(separator: ", ")))\n    }\n}\n"
        }
        return out
    }

    /// The one registry the app calls: every generated scene's routes over its live container.
    /// `SceneRegistry`: every scene of the specs, generated over its live container, hand-written
    /// through its own `register(on:resources:)`.
    static func registry(_ specs: [SceneSpec]) -> String {
        var out = "import LiveScenes\nimport Scenes\n\n"
        out += "/// Registers the routes of every scene, generated or hand-written, each through the one place that\n"
        out += "/// lists its full paths (`<Scene>Routes`).\n"
        out += "enum SceneRegistry {\n"
        out += "    static func register(on routers: SceneRouters, resources: AppResources) {\n"
        for spec in specs {
            var arguments = spec.handwritten ? "resources: resources" : "container: .live(resources)"
            if !spec.handwritten && spec.isRateLimited { arguments += ", throttle: ThrottleContainer.live(resources).throttle" }
            out += "        \(spec.scene)Routes.register(on: routers, \(arguments))\n"
        }
        out += "    }\n}\n"
        return out
    }
}
