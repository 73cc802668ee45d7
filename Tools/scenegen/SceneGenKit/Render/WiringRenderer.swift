/// The scene container (`live` and the initializer tests fill with mocks), the HTTP routes with
/// their request bodies, and the registry that wires every generated scene into the app.
enum WiringRenderer {
    static func container(_ names: SceneNames) -> String {
        let stored = containerProperties(names)
        let arguments = stored.map { String($0.prefix { $0 != ":" }) }.map { "\($0): \($0)" }
        var out = CodeWriter()
        out.lines(["import Domain", "import UseCase", ""])
        out.doc(
            "The \(names.scene) scene's dependencies. Tests fill `init` with mocks; `live` (LiveScenes) wires"
                + (names.spec.gateways.isEmpty ? " PostgreSQL." : "\nPostgreSQL and the HTTP APIs the spec names."))
        out.block("public struct \(names.container): Sendable") { out in
            out.lines(stored.map { "public let \($0)" })
            out.blank()
            DomainRenderer.initializer(stored, into: &out)
            out.blank()
            out.block("public var useCase: \(names.useCase)") { $0.line("\(names.useCase)(\(arguments.joined(separator: ", ")))") }
        }
        return out.text
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
        if names.checksShopCurrency { live.append("shopCurrency: resources.config.currency") }
        live.append("system: resources.system")
        var out = CodeWriter()
        out.lines(["import Gateway", "import Scenes", ""])
        out.doc("The production graph of `\(names.container)`.")
        out.block("extension \(names.container)") { out in
            out.block("public static func live(_ resources: AppResources) -> \(names.container)") { out in
                out.list("\(names.container)(", live)
            }
        }
        return out.text
    }

    /// The scene's dependencies as `name: type`: its store, hand-written ports, gateways, the
    /// shop's currency when a field must be in it, and clock; the container holds them and the use
    /// case takes them.
    static func containerProperties(_ names: SceneNames) -> [String] {
        var stored = names.spec.entity == nil ? [] : ["store: any \(names.store)"]
        stored += names.spec.ports.map { "\(names.portProperty($0)): \(names.portType($0))" }
        for gateway in names.spec.gateways {
            stored.append("\(names.gatewayProperty(gateway)): any \(names.gatewayPort(gateway))")
        }
        if names.checksShopCurrency { stored.append("shopCurrency: Currency") }
        return stored + ["system: SystemContext"]
    }

    /// The once-file building each hand-written port for production (LiveScenes);
    /// `testableImports` follow the others, as the formatter wants them in a file people edit.
    static func livePorts(_ names: SceneNames, testableImports: String) -> String {
        var out = CodeWriter()
        out.lines(["import Domain", "import Gateway", "import Scenes"])
        out.append(testableImports)
        out.blank()
        out.doc("The production implementations of the \(names.scene) scene's hand-written ports.")
        out.block("extension \(names.container)") { out in
            for (index, port) in names.spec.ports.enumerated() {
                let name = Names.typeName(port.name)
                if index > 0 { out.blank() }
                out.doc("The `\(names.portProperty(port))` port.")
                out.block("static func live\(name)(_ resources: AppResources) -> \(names.portType(port))") { out in
                    // A compile error, not a crash at start: the build names what is missing.
                    out.line("// scenegen: this file is yours; scenegen never touches it again.")
                    out.line("#error(\"scenegen: build the production \(port.type) of `\(names.portProperty(port))` here\")")
                }
            }
        }
        return out.text
    }

    static func routes(_ names: SceneNames) -> String {
        let limited = names.spec.isRateLimited
        var out = CodeWriter()
        out.lines(["import Domain", "import Foundation", "import Hummingbird", "import Presenter", "import Scenes"])
        out.lines((limited ? ["import UseCase"] : []) + [""])
        out.doc("\(names.scene) routes: parse, call the use case, present" + (limited ? "; a rate-limited route is counted first." : "."))
        out.block("enum \(names.routes)") { out in
            let throttle = limited ? ", throttle: RequestThrottle" : ""
            let uploads = names.spec.takesUploads ? ", uploads: UploadReceiver" : ""
            out.block("static func register(on routers: SceneRouters, container: \(names.container)\(throttle)\(uploads))") { out in
                out.line("let useCase = container.useCase")
                for useCase in names.spec.useCases {
                    out.blank()
                    route(names, useCase, into: &out)
                }
            }
        }
        return out.text
    }

    /// `<Scene>Requests.swift`: the JSON bodies the scene's routes decode, or `nil` when no
    /// route takes one.
    static func requestBodies(_ names: SceneNames) -> String? {
        var bodies = CodeWriter()
        requests(names, into: &bodies)
        CustomUseCaseRenderer.bodies(names, into: &bodies)
        guard !bodies.text.isEmpty else { return nil }
        // Each body starts with a blank line: the imports' blank line stands in for the first.
        return "import Domain\nimport Foundation\n" + bodies.text
    }

    private static func route(_ names: SceneNames, _ useCase: UseCaseSpec, into out: inout CodeWriter) {
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
        case .replace:
            body.append("let draft = try await RequestParsing.json(\(names.createRequest).self, from: request).draft()")
            body.append("return \(presenter).record(await outcome { try await useCase.\(call)(\(owner)id: id, draft) })")
        case .delete:
            body.append("return \(presenter).deleted(await outcome { try await useCase.\(call)(\(owner)id: id) })")
        case .custom:
            body += CustomUseCaseRenderer.routeBody(names, useCase)
        }
        let input = useCase.input ?? CustomInputSpec(path: [], query: [], body: [])
        let usesRequest =
            [.create, .list, .update, .replace].contains(useCase.kind) || !(input.query + input.headers + input.body).isEmpty
            || input.session
            || input.rawBodyMax != nil || input.upload != nil || !input.objects.isEmpty
        let usesContext =
            names.actsForOwner(useCase) || (useCase.kind != .custom && !useCase.route.parameters.isEmpty)
            || useCase.route.parameters.contains("id") || (useCase.kind == .custom && (useCase.auth == .customer || !input.path.isEmpty))
            || useCase.rateLimit?.class.perCustomer == false || useCase.background
        out.line("// \(useCase.route): \(useCase.name)")
        out.lines(CustomUseCaseRenderer.resumableTarget(names, useCase))
        out.line("routers.\(group).\(method)(\(swiftString(path))) { \(usesRequest ? "request" : "_"), \(usesContext ? "context" : "_") in")
        out.indented { $0.lines(body) }
        out.line("}")
    }

    /// The JSON bodies of create and update, decoded with snake_case keys.
    private static func requests(_ names: SceneNames, into out: inout CodeWriter) {
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
            case .money: return field.bareProperty + (optional ? "?.input" : "!.input")
            case .timestamp:
                return "RequestParsing.timestamp(\(field.bareProperty), field: \(swiftString(field.name)))" + (optional ? "" : "!")
            default: return field.bareProperty + (optional ? "" : "!")
            }
        }
        let throwing = writable.contains { $0.field.type == .timestamp }
        if names.drafts {
            let routes = (names.useCases(.create) + names.useCases(.replace)).map { "`\($0.route)`" }.joined(separator: " and ")
            out.blank()
            out.doc("The body of \(routes): read member by member, so every unreadable or missing one is named at once.")
            out.block("struct \(names.createRequest): Decodable") { out in
                out.lines(writable.map { "let \($0.property): \(wireType($0))?" })
                if !writable.isEmpty {
                    codingKeys(writable.map { ($0.property, $0.name) }, into: &out)
                    memberDecoding(writable.map { ($0.property, wireType($0)) }, into: &out)
                }
                out.blank()
                let required = writable.filter(\.requiredOnCreate)
                let arguments = writable.map { "\($0.bareProperty): \(convert($0, optional: !$0.requiredOnCreate))" }
                if !required.isEmpty { out.doc("- Throws: `ValidationError` naming every required field the body lacks.") }
                out.block("func draft()\(required.isEmpty && !throwing ? "" : " throws") -> \(names.draft)") { out in
                    if !required.isEmpty {
                        out.line("var errors = FieldErrors()")
                        for field in required {
                            out.line("errors.require(\(field.property) != nil, \(swiftString(field.name)), \"is required\")")
                        }
                        out.line("try errors.throwIfAny()")
                    }
                    out.line("return \(throwing ? "try " : "")\(names.draft)(\(arguments.joined(separator: ", ")))")
                }
            }
        }
        if names.updates {
            out.blank()
            let removable = names.removableFields
            out.doc(
                "The body of `\(names.useCases(.update)[0].route)` (JSON merge patch, RFC 7396): every field optional; absent leaves it as it is, null removes it"
                    + " where it may be absent (a 422 where it may not).")
            out.block("struct \(names.updateRequest): Decodable") { out in
                out.lines(writable.map { "let \($0.property): \(wireType($0))?" })
                if !removable.isEmpty { out.line("let removing: Set<\(names.removable)>") }
                codingKeys(writable.map { ($0.property, $0.name) }, into: &out)
                memberDecoding(writable.map { ($0.property, wireType($0)) }, nulls: (writable, names.removable), into: &out)
                out.blank()
                let arguments =
                    writable.map { "\($0.bareProperty): \(convert($0, optional: true))" }
                    + (removable.isEmpty ? [] : ["removing: removing"])
                out.block("func changes()\(throwing ? " throws" : "") -> \(names.changes)") {
                    $0.line("\(throwing ? "try " : "")\(names.changes)(\(arguments.joined(separator: ", ")))")
                }
            }
        }
    }

    /// A blank line and `init(from:)` reading each member on its own (`MemberDecoder`), so every
    /// unreadable one is named in one answer.
    /// With `nulls` (a partial update's fields, and the type naming those it may remove), a null
    /// member removes a field that may be absent and is refused for one that may not.
    static func memberDecoding(
        _ members: [(property: String, type: String)], nulls: (fields: [SwiftField], removable: String)? = nil,
        into out: inout CodeWriter
    ) {
        out.blank()
        out.doc("Reads every member on its own, so each unreadable one is named in one answer.")
        out.block("init(from decoder: any Decoder) throws") { out in
            out.line("var members = try MemberDecoder(decoder, keyedBy: CodingKeys.self)")
            for (property, type) in members { out.line("\(property) = members.decode(\(type).self, .\(property))") }
            if let nulls {
                let removes = nulls.fields.contains { $0.field.optional }
                if removes { out.line("var removing = Set<\(nulls.removable)>()") }
                for field in nulls.fields {
                    let key = ".\(field.property.replacingOccurrences(of: "`", with: ""))"
                    out.line(field.field.optional ? "if members.isNull(\(key)) { removing.insert(\(key)) }" : "members.refuseNull(\(key))")
                }
                if removes { out.line("self.removing = removing") }
            }
            out.line("try members.finish()")
        }
    }

    /// A blank line and `enum CodingKeys` mapping each property to its JSON key (snake_case), the
    /// key left out where it is the property's name.
    static func codingKeys(_ members: [(property: String, key: String)], into out: inout CodeWriter) {
        out.blank()
        out.block("enum CodingKeys: String, CodingKey") { out in
            for member in members {
                let bare = member.property.replacingOccurrences(of: "`", with: "")
                out.line("case \(member.property)" + (bare == member.key ? "" : " = \(swiftString(member.key))"))
            }
        }
    }

    /// The one registry the app calls: every generated scene's routes over its live container.
    /// `SceneRegistry`: every scene of the specs, generated over its live container, hand-written
    /// through its own `register(on:resources:)`.
    static func registry(_ specs: [SceneSpec]) -> String {
        var out = CodeWriter()
        out.lines(["import LiveScenes", "import Scenes", ""])
        out.doc(
            "Registers the routes of every scene, generated or hand-written, each through the one place that\nlists its full paths (`<Scene>Routes`)."
        )
        // The generated http gateways' base URLs are checked first: a bad one stops the start.
        let gateways = specs.filter { !$0.handwritten }.flatMap { spec in spec.gateways.map { (spec.scene, $0) } }
        out.block("enum SceneRegistry") { out in
            if !gateways.isEmpty {
                out.doc("- Throws: `ConfigError` when a generated gateway's base URL is not an http or https URL.")
            }
            out.block("static func register(on routers: SceneRouters, resources: AppResources)\(gateways.isEmpty ? "" : " throws")") {
                out in
                for (scene, gateway) in gateways {
                    out.line(
                        "try resources.checkGatewayBaseURL(\(swiftString(gateway.baseURLEnv)), for: \(swiftString("\(scene)'s \(gateway.name)")))"
                    )
                }
                for spec in specs {
                    var arguments = spec.handwritten ? "resources: resources" : "container: .live(resources)"
                    if !spec.handwritten && spec.isRateLimited { arguments += ", throttle: ThrottleContainer.live(resources).throttle" }
                    if !spec.handwritten && spec.takesUploads { arguments += ", uploads: routers.uploads" }
                    out.line("\(spec.scene)Routes.register(on: routers, \(arguments))")
                }
            }
        }
        return out.text
    }
}
