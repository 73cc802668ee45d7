import Yams

extension SpecReader {
    mutating func scene(_ root: Node, file: String) -> SceneSpec? {
        let keys = mapping(
            root, "the spec", allowed: SpecFormat.sceneKeys,
            required: ["scene", "summary", "useCases"])
        let scene = string(keys["scene"], "scene")
        if let scene, let node = keys["scene"] {
            if !Names.isUpperCamelCase(scene) {
                sink.error("scene '\(scene)' must be UpperCamelCase", at: node.position)
            } else if Names.swiftKeywords.contains(scene) {
                sink.error("scene '\(scene)' is a Swift keyword", at: node.position)
            }
        }
        let summary = string(keys["summary"], "summary")
        var handwritten = false
        if let node = keys["code"], let code = string(node, "code") {
            if code == "handwritten" {
                handwritten = true
            } else if code != "generated" {
                sink.error("code must be 'generated' (the default) or 'handwritten'", at: node.position)
            }
        }
        var gateways: [GatewaySpec] = []
        for node in sequence(keys["gateways"], "gateways") {
            guard let value = gateway(node) else { continue }
            gateways.append(value)
            if value.operations.isEmpty && !handwritten {
                sink.error("an http gateway of a generated scene needs 'operations', its typed calls", at: node.position)
            }
        }
        checkUnique(gateways.map(\.name), positions: sequence(keys["gateways"], "gateways").map(\.position), "gateway")
        var entity: EntitySpec?
        if let node = keys["entity"] { entity = self.entity(node) }
        let useCaseNodes = sequence(keys["useCases"], "useCases")
        if keys["useCases"] != nil && useCaseNodes.isEmpty {
            sink.error("useCases must list at least one use case", at: keys["useCases"]!.position)
        }
        var useCases: [UseCaseSpec] = []
        for node in useCaseNodes { if let value = useCase(node, gateways: gateways, entity: entity) { useCases.append(value) } }
        checkUnique(useCases.map(\.name), positions: useCases.map(\.position), "use case")
        checkRoutes(useCases, generated: !handwritten)
        let ports = self.ports(keys["ports"], hasEntity: keys["entity"] != nil)
        let models = self.models(keys["models"])
        if keys["entity"] == nil, let crud = useCases.first(where: { $0.kind != .custom }) {
            sink.error("a \(crud.kind.rawValue) use case needs the scene's entity: declare 'entity'", at: crud.position)
        }
        guard let scene, let summary, keys["entity"] == nil || entity != nil else { return nil }
        if !handwritten {
            for useCase in useCases where useCase.kind == .custom && useCase.outcomes.isEmpty {
                sink.error("a custom use case of a generated scene needs 'outcomes', a list of { name, status }", at: useCase.position)
            }
            if let entity { checkGeneratable(entity, useCases) }
        }
        for useCase in useCases where entity == nil {
            for outcome in useCase.outcomes where outcome.body == .entity {
                sink.error("body 'entity' needs the scene's entity; name a model instead", at: outcome.position)
            }
        }
        var spec = SceneSpec(
            file: file, scene: scene, summary: summary, handwritten: handwritten, entity: entity, useCases: useCases, gateways: gateways)
        spec.ports = ports
        spec.models = models
        return spec
    }

    mutating func entity(_ node: Node) -> EntitySpec? {
        let keys = mapping(node, "entity", allowed: SpecFormat.entityKeys, required: ["name", "table", "fields"])
        let name = string(keys["name"], "entity name")
        if let name, !Names.isUpperCamelCase(name) {
            sink.error("entity name '\(name)' must be UpperCamelCase", at: keys["name"]!.position)
        }
        let table = self.name(keys["table"], "table")
        var owner: String?
        if let ownerNode = keys["owner"], let value = string(ownerNode, "owner") {
            if value == "customer" { owner = value } else { sink.error("owner must be 'customer'", at: ownerNode.position) }
        }
        let fieldNodes = sequence(keys["fields"], "fields")
        var fields: [FieldSpec] = []
        for node in fieldNodes { if let value = field(node) { fields.append(value) } }
        checkUnique(fields.map(\.name), positions: fields.map(\.position), "field")
        let primaries = fields.filter(\.primary)
        if keys["fields"] != nil && primaries.isEmpty {
            sink.error("entity needs a field with 'primary: true'", at: keys["fields"]!.position)
        }
        if owner != nil, let clash = fields.first(where: { $0.name == "customer_id" }) {
            sink.error("'customer_id' is the owner column that 'owner: customer' adds; do not declare it", at: clash.position)
        }
        let uniqueTogether = self.uniqueTogether(keys["unique"], fields: fields, owned: owner != nil)
        if fields.count != fieldNodes.count { return nil }
        guard let name, let table else { return nil }
        return EntitySpec(name: name, table: table, owner: owner, fields: fields, uniqueTogether: uniqueTogether)
    }

    /// `unique: [[customer_id, item_id]]`: groups of two or more columns, each a field (or the
    /// owner's `customer_id`) of a single-column type, none already unique alone.
    mutating func uniqueTogether(_ node: Node?, fields: [FieldSpec], owned: Bool) -> [[String]] {
        var groups: [[String]] = []
        for groupNode in sequence(node, "unique") {
            let names = sequence(groupNode, "a unique group").compactMap { string($0, "a unique column") }
            guard names.count >= 2, Set(names).count == names.count else {
                sink.error(
                    "a unique group lists two or more different fields, as [customer_id, item_id]; one field says unique: true",
                    at: groupNode.position)
                continue
            }
            var valid = true
            for name in names where !(owned && name == "customer_id") {
                guard let field = fields.first(where: { $0.name == name }) else {
                    sink.error(
                        "unique group names '\(name)', which is no field\(owned ? " (nor customer_id)" : "")", at: groupNode.position)
                    valid = false
                    continue
                }
                if field.type == .money || field.unique || field.primary {
                    sink.error(
                        "'\(name)' cannot be in a unique group: \(field.type == .money ? "money spans two columns" : "it is unique alone")",
                        at: groupNode.position)
                    valid = false
                }
            }
            if valid { groups.append(names) }
        }
        return groups
    }

    mutating func field(_ node: Node, role: FieldRole = .entity) -> FieldSpec? {
        let keys = mapping(node, role.what, allowed: role.keys, required: ["name", "type"])
        let name = self.name(keys["name"], "field name")
        var type: FieldType?
        if let typeNode = keys["type"], let typeName = string(typeNode, "type") {
            switch typeName {
            case "uuid": type = .uuid
            case "string": type = .string
            case "text": type = .text
            case "int": type = .int
            case "bigint": type = .bigint
            case "bool": type = .bool
            case "money": type = .money
            case "timestamp": type = .timestamp
            case "enum":
                type = .enumeration(enumValues(keys["values"], at: typeNode.position))
            default:
                sink.error("unknown type '\(typeName)' (known: \(FieldType.names.joined(separator: ", ")))", at: typeNode.position)
            }
        }
        if let values = keys["values"], type.map({ if case .enumeration = $0 { return false } else { return true } }) == true {
            sink.error("'values' belongs to enum fields only", at: values.position)
        }
        let min = int(keys["min"], "min")
        let max = int(keys["max"], "max")
        if let min, let max, min > max { sink.error("min (\(min)) is greater than max (\(max))", at: keys["min"]!.position) }
        if let type, keys["min"] != nil || keys["max"] != nil {
            switch type {
            case .int, .bigint, .string, .text, .money: break
            default:
                sink.error(
                    "min and max apply to int, bigint, money, string and text fields only", at: (keys["min"] ?? keys["max"])!.position)
            }
        }
        if type == .string && max == nil && role != .plain, let typeNode = keys["type"] {
            sink.error("a string field needs 'max' (use text for long free text)", at: typeNode.position)
        }
        if type == .money && keys["default"] != nil {
            sink.error("money fields take no default", at: keys["default"]!.position)
        }
        var references: String?
        if let node = keys["references"] { references = self.name(node, "references") }
        if references != nil, let type, type != .uuid {
            sink.error("references needs a uuid field", at: keys["references"]!.position)
        }
        var defaultValue: DefaultValue?
        if let node = keys["default"] { defaultValue = self.defaultValue(node, type: type) }
        if defaultValue == .now && role != .entity {
            sink.error("default 'now' belongs to entity fields only", at: keys["default"]!.position)
        }
        guard let name, let type else { return nil }
        var field = FieldSpec(
            name: name, type: type, primary: bool(keys["primary"], "primary"), optional: bool(keys["optional"], "optional"),
            defaultValue: defaultValue, readonly: bool(keys["readonly"], "readonly"), unique: bool(keys["unique"], "unique"),
            references: references, min: min, max: max, position: node.position)
        field.adminOnly = bool(keys["admin_only"], "admin_only")
        if field.adminOnly && (field.readonly || field.primary) {
            sink.error("admin_only marks a field admin routes write; a readonly or primary field is written by none", at: node.position)
        }
        return field
    }

    mutating func defaultValue(_ node: Node, type: FieldType?) -> DefaultValue? {
        guard case .scalar(let scalar) = node else {
            sink.error("default must be a single value", at: node.position)
            return nil
        }
        let text = scalar.string
        guard let type else { return nil }
        switch type {
        case .timestamp:
            if text == "now" { return .now }
        case .int, .bigint:
            if let value = Int64(text) { return .int(value) }
        case .bool:
            if let value = node.bool { return .bool(value) }
        case .string, .text:
            return .string(text)
        case .enumeration(let values):
            if values.contains(text) { return .string(text) }
        case .uuid, .money:
            break
        }
        sink.error("default '\(text)' does not fit a field of type \(type.name)", at: node.position)
        return nil
    }

    mutating func useCase(_ node: Node, gateways: [GatewaySpec], entity: EntitySpec?) -> UseCaseSpec? {
        let keys = mapping(
            node, "use case", allowed: SpecFormat.useCaseKeys, required: ["name", "kind", "route"])
        let name = self.name(keys["name"], "use case name")
        var kind: UseCaseSpec.Kind?
        if let kindNode = keys["kind"], let text = string(kindNode, "kind") {
            kind = UseCaseSpec.Kind(rawValue: text)
            if kind == nil {
                sink.error(
                    "unknown kind '\(text)' (known: \(UseCaseSpec.Kind.allCases.map(\.rawValue).joined(separator: ", ")))",
                    at: kindNode.position)
            }
        }
        var route: Route?
        if let routeNode = keys["route"], let text = string(routeNode, "route") {
            route = Route(text)
            if route == nil {
                sink.error(
                    "route '\(text)' must be 'METHOD /path' with METHOD one of \(Route.methods.joined(separator: ", ")) and segments of lowercase letters, digits, '-', '_' or {snake_case}",
                    at: routeNode.position)
            }
        }
        var auth = Auth.customer
        if let authNode = keys["auth"], let text = string(authNode, "auth") {
            if let value = Auth(rawValue: text) {
                auth = value
            } else {
                sink.error("auth must be public, customer or admin", at: authNode.position)
            }
        }
        // Rows a customer owns are read by anyone (public list and get) and read or changed by
        // staff (admin), but written only by their owner.
        if entity?.owner != nil, let kind, kind != .custom, let authNode = keys["auth"] {
            if auth == .public && ![.list, .get].contains(kind) {
                sink.error(
                    "a customer's rows are changed by their owner or staff: a public route only lists or gets them", at: authNode.position)
            }
            if auth == .admin && kind == .create {
                sink.error(
                    "a customer's row is created by its owner (auth: customer): an admin create could not say whose it is",
                    at: authNode.position)
            }
        }
        let page = int(keys["page"], "page").map(Int.init)
        if let page, !(1...100).contains(page) { sink.error("page must be between 1 and 100", at: keys["page"]!.position) }
        if page != nil, kind != .list { sink.error("page applies to list use cases only", at: keys["page"]!.position) }
        var used: [String] = []
        for gatewayNode in sequence(keys["gateways"], "gateways") {
            guard let gatewayName = string(gatewayNode, "gateway") else { continue }
            if !gateways.contains(where: { $0.name == gatewayName }) {
                sink.error("gateway '\(gatewayName)' is not declared under 'gateways'", at: gatewayNode.position)
            }
            used.append(gatewayName)
        }
        if !used.isEmpty, kind != .custom { sink.error("only custom use cases name gateways", at: keys["gateways"]!.position) }
        if let kind, let route { checkRouteShape(kind: kind, route: route, at: keys["route"]!.position) }
        for key in ["input", "outcomes"] where kind != nil && kind != .custom && keys[key] != nil {
            sink.error("only custom use cases declare '\(key)'", at: keys[key]!.position)
        }
        var input: CustomInputSpec?
        if kind == .custom, let route, keys["input"] != nil || keys["outcomes"] != nil {
            input = customInput(keys["input"], route: route, routePosition: keys["route"]!.position, auth: auth)
        }
        let outcomes = kind == .custom ? self.outcomes(keys["outcomes"]) : []
        let rateLimit = self.rateLimit(keys["rate_limit"], auth: auth, input: input)
        if rateLimit != nil, kind != .custom { sink.error("only custom use cases are rate limited", at: keys["rate_limit"]!.position) }
        guard let name, let kind, let route else { return nil }
        let filters = self.filters(keys["filters"], kind: kind, entity: entity, route: route)
        var useCase = UseCaseSpec(
            name: name, kind: kind, route: route, auth: auth, page: page, filters: filters, gateways: used, input: input,
            outcomes: outcomes, position: node.position)
        useCase.rateLimit = rateLimit
        return useCase
    }

    /// `filters: [status, item_id]` of a list: fields of a type a query parameter can hold
    /// (enum, uuid, bool, string, int, bigint), not the route's own parameters.
    mutating func filters(_ node: Node?, kind: UseCaseSpec.Kind, entity: EntitySpec?, route: Route) -> [String] {
        guard let node else { return [] }
        if kind != .list { sink.error("filters apply to list use cases only", at: node.position) }
        var filters: [String] = []
        for item in sequence(node, "filters") {
            guard let name = string(item, "filter") else { continue }
            guard let field = entity?.fields.first(where: { $0.name == name }) else {
                sink.error("filter '\(name)' names no field of the entity", at: item.position)
                continue
            }
            switch field.type {
            case .money, .text, .timestamp:
                sink.error(
                    "filter '\(name)' is a \(field.type.name) field: filters are enum, uuid, bool, string, int or bigint fields",
                    at: item.position)
            default:
                if route.parameters.contains(name) || field.primary {
                    sink.error("filter '\(name)' is fixed by the route already", at: item.position)
                } else if filters.contains(name) {
                    sink.error("duplicate filter '\(name)'", at: item.position)
                } else {
                    filters.append(name)
                }
            }
        }
        return filters
    }

    mutating func gateway(_ node: Node) -> GatewaySpec? {
        let keys = mapping(node, "gateway", allowed: SpecFormat.gatewayKeys, required: ["name", "kind", "base_url_env"])
        let name = string(keys["name"], "gateway name")
        if let name, !Names.isUpperCamelCase(name) {
            sink.error("gateway name '\(name)' must be UpperCamelCase", at: keys["name"]!.position)
        }
        var kind: GatewaySpec.Kind?
        if let kindNode = keys["kind"], let text = string(kindNode, "kind") {
            kind = GatewaySpec.Kind(rawValue: text)
            if kind == nil { sink.error("gateway kind must be 'http'", at: kindNode.position) }
        }
        let env = string(keys["base_url_env"], "base_url_env")
        if let env, !env.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) {
            sink.error("base_url_env '\(env)' must be an UPPER_CASE environment variable name", at: keys["base_url_env"]!.position)
        }
        let operationNodes = sequence(keys["operations"], "operations")
        let operations = operationNodes.compactMap { operation($0) }
        checkUnique(operations.map(\.name), positions: operations.map(\.position), "operation")
        guard let name, let kind, let env, operations.count == operationNodes.count else { return nil }
        return GatewaySpec(name: name, kind: kind, baseURLEnv: env, operations: operations)
    }

    // MARK: cross checks

    /// The values of an enum field, verbatim; each must be a valid value whose Swift case name
    /// no other value shares (`in-stock` and `in_stock` both make `inStock`).
    mutating func enumValues(_ node: Node?, at position: SourcePosition) -> [String] {
        var values: [String] = []
        var cases: [String: String] = [:]
        for node in sequence(node, "values") {
            guard let value = string(node, "enum value") else { continue }
            guard Names.isEnumValue(value) else {
                sink.error(
                    "enum value '\(value)' must be 1 to 63 ASCII letters, digits, '-', '_', '.' or '/', starting with a letter or digit",
                    at: node.position)
                continue
            }
            let name = Names.caseName(value)
            if let other = cases[name] {
                sink.error(
                    other == value
                        ? "duplicate enum value '\(value)'"
                        : "enum values '\(other)' and '\(value)' both become the Swift case '\(name)'",
                    at: node.position)
                continue
            }
            cases[name] = value
            values.append(value)
        }
        if values.isEmpty && cases.isEmpty {
            sink.error("an enum field needs 'values', a list of values such as [JP, US] or [in-stock, sold-out]", at: position)
        }
        return values
    }

    mutating func checkUnique(_ names: [String], positions: [SourcePosition], _ what: String) {
        var seen = Set<String>()
        for (name, position) in zip(names, positions) where !seen.insert(name).inserted {
            sink.error("duplicate \(what) name '\(name)'", at: position)
        }
    }

    /// CRUD kinds have fixed shapes: get/update/delete address one row by its `{id}`; any of
    /// them may be nested under one parent parameter (`/v1/items/{item_id}/notes/{id}`).
    mutating func checkRouteShape(kind: UseCaseSpec.Kind, route: Route, at position: SourcePosition) {
        let expected: (method: String, needsID: Bool)? =
            switch kind {
            case .create: ("POST", false)
            case .list: ("GET", false)
            case .get: ("GET", true)
            case .update: ("PATCH", true)
            case .delete: ("DELETE", true)
            case .custom: nil
            }
        guard let expected else { return }
        if route.method != expected.method {
            sink.error("a \(kind.rawValue) use case is routed with \(expected.method), not \(route.method)", at: position)
        }
        if expected.needsID && route.segments.last != "{id}" {
            sink.error("a \(kind.rawValue) route must end in /{id}", at: position)
        }
        let others = route.parameters.filter { $0 != "id" }
        if !expected.needsID && route.parameters.contains("id") {
            sink.error("a \(kind.rawValue) route takes no {id}", at: position)
        }
        if others.count > 1 {
            sink.error(
                "a \(kind.rawValue) route is nested under one parent at most, not \(others.map { "{\($0)}" }.joined(separator: " and "))",
                at: position)
        }
    }

    /// Routes may not clash; a generated scene's routes also give each parameter place one name
    /// (a handwritten scene's names are documentation: its code registers its own).
    mutating func checkRoutes(_ useCases: [UseCaseSpec], generated: Bool) {
        for (index, useCase) in useCases.enumerated() {
            if let earlier = useCases[..<index].first(where: { $0.route.clashes(with: useCase.route) }) {
                sink.error("route \(useCase.route) clashes with \(earlier.route) of use case '\(earlier.name)'", at: useCase.position)
            }
            for earlier in useCases[..<index] where generated {
                guard let (name, otherName) = useCase.route.parameterNameConflict(with: earlier.route) else { continue }
                sink.error(
                    "route parameter {\(name)} sits where \(earlier.route) of use case '\(earlier.name)' has {\(otherName)}; the router needs one name per place",
                    at: useCase.position)
                break
            }
        }
    }
}

extension FieldType {
    var name: String {
        switch self {
        case .uuid: "uuid"
        case .string: "string"
        case .text: "text"
        case .int: "int"
        case .bigint: "bigint"
        case .bool: "bool"
        case .money: "money"
        case .timestamp: "timestamp"
        case .enumeration: "enum"
        }
    }
}

extension SpecReader {
    /// What the generated CRUD code needs of the entity.
    mutating func checkGeneratable(_ entity: EntitySpec, _ useCases: [UseCaseSpec]) {
        for primary in entity.fields.filter(\.primary) where primary.type != .uuid {
            sink.error("the primary field of a generated scene must be of type uuid", at: primary.position)
        }
        for primary in entity.fields.filter(\.primary).dropFirst() {
            sink.error("a generated scene has one primary field; a composite key needs code: handwritten", at: primary.position)
        }
        let hasCreatedAt = entity.fields.contains { $0.name == "created_at" && $0.type == .timestamp }
        for useCase in useCases where useCase.kind == .list && !hasCreatedAt {
            sink.error(
                "a list pages newest first by created_at: add { name: created_at, type: timestamp, default: now, readonly: true }",
                at: useCase.position)
        }
        let writable = entity.fields.filter { !$0.primary && !$0.readonly }
        for useCase in useCases where useCase.kind == .update && writable.isEmpty {
            sink.error("an update needs a field that is not readonly", at: useCase.position)
        }
        let parent = checkParent(entity, useCases)
        if useCases.contains(where: { $0.kind == .create && $0.auth != .admin }) {
            for field in entity.fields where field.adminOnly && !field.optional && field.defaultValue == nil {
                sink.error(
                    "'\(field.name)' is admin_only but a create that is not admin's must set it: give it a default or optional: true",
                    at: field.position)
            }
        }
        guard useCases.contains(where: { $0.kind == .create }) else { return }
        let unset = entity.fields.filter { field in
            field.readonly && !field.primary && !field.optional && field.defaultValue == nil && field.name != parent?.name
        }
        for field in unset {
            sink.error("a readonly field needs a default or optional: true when the scene creates records", at: field.position)
        }
    }
}

extension SpecReader {
    /// Nested CRUD routes (`/v1/items/{item_id}/notes`) share one parent, a field that names the
    /// parent row: a readonly, required uuid reference. Returns it.
    mutating func checkParent(_ entity: EntitySpec, _ useCases: [UseCaseSpec]) -> FieldSpec? {
        let crud = useCases.filter { $0.kind != .custom }
        guard let first = crud.first(where: { $0.route.parameters.contains { $0 != "id" } }) else { return nil }
        let name = first.route.parameters.first { $0 != "id" }!
        for useCase in crud where !useCase.route.parameters.contains(name) {
            sink.error(
                "the CRUD routes of a scene are nested under one parent: \(first.route) has {\(name)}, \(useCase.route) does not",
                at: useCase.position)
        }
        guard let field = entity.fields.first(where: { $0.name == name }) else {
            sink.error(
                "{\(name)} in \(first.route) names no field: declare { name: \(name), type: uuid, references: <table>, readonly: true }",
                at: first.position)
            return nil
        }
        if field.type != .uuid || field.references == nil || field.optional || field.primary || !field.readonly {
            sink.error(
                "'\(name)' nests the routes (\(first.route)), so it must be a required, readonly uuid reference: { name: \(name), type: uuid, references: <table>, readonly: true }",
                at: field.position)
        }
        return field
    }
}
