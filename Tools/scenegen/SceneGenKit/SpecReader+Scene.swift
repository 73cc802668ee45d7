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
        if let summary, summary.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            // It goes into doc comments and the migration's comment line as it is.
            sink.error("summary must be one line of text (no line breaks or control characters)", at: keys["summary"]!.position)
        }
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
        checkLocations(spec)
        return spec
    }

    /// Each `location`'s `{name}`s are required members of its outcome's body that fit in a
    /// path segment.
    mutating func checkLocations(_ spec: SceneSpec) {
        for useCase in spec.useCases {
            for outcome in useCase.outcomes {
                guard let location = outcome.location else { continue }
                guard let members = spec.locationMembers(of: outcome) else {
                    sink.error(
                        "location names members of the answer: its body must be fields, the entity or a model this spec declares",
                        at: outcome.position)
                    continue
                }
                for placeholder in OutcomeSpec.placeholders(in: location) {
                    let field = members.first { $0.name == placeholder }
                    // Ids only: their text needs no escaping in a path.
                    if field == nil || field!.optional || ![.uuid, .int, .bigint].contains(field!.type) {
                        sink.error(
                            "'{\(placeholder)}' in location \"\(location)\" must name a required uuid, int or bigint member of the body",
                            at: outcome.position)
                    }
                }
            }
        }
    }

    mutating func entity(_ node: Node) -> EntitySpec? {
        let keys = mapping(node, "entity", allowed: SpecFormat.entityKeys, required: ["name", "table", "fields"])
        let name = string(keys["name"], "entity name")
        if let name, !Names.isUpperCamelCase(name) {
            sink.error("entity name '\(name)' must be UpperCamelCase", at: keys["name"]!.position)
        }
        let table = self.name(keys["table"], "table")
        if let table, Names.sqlReservedWords.contains(table) {
            sink.error("table '\(table)' is a reserved word in PostgreSQL: choose another name", at: keys["table"]!.position)
        }
        var owner: String?
        if let ownerNode = keys["owner"], let value = string(ownerNode, "owner") {
            if value == "customer" { owner = value } else { sink.error("owner must be 'customer'", at: ownerNode.position) }
        }
        let fieldNodes = sequence(keys["fields"], "fields")
        var fields: [FieldSpec] = []
        for node in fieldNodes { if let value = field(node) { fields.append(value) } }
        fieldsUnread = fields.count != fieldNodes.count
        checkUnique(fields.map(\.name), positions: fields.map(\.position), "field")
        var swiftNames: [String: String] = [:]
        for field in fields {
            let swift = Names.camelCase(field.name)
            if let other = swiftNames[swift], other != field.name {
                sink.error("fields '\(other)' and '\(field.name)' are both '\(swift)' in Swift: rename one", at: field.position)
            }
            swiftNames[swift] = swiftNames[swift] ?? field.name
        }
        for field in fields where Names.sqlReservedWords.contains(field.name) {
            sink.error("field '\(field.name)' is a reserved word in PostgreSQL, so no column name: choose another name", at: field.position)
        }
        checkMoneyColumns(fields)
        if let table { checkIdentifierLengths(table: table, at: keys["table"]!.position, fields: fields) }
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
        var entity = EntitySpec(name: name, table: table, owner: owner, fields: fields, uniqueTogether: uniqueTogether)
        entity.tablePosition = keys["table"]?.position
        entity.rules = bool(keys["rules"], "rules")
        if let node = keys["max_per_owner"], let value = int(node, "max_per_owner") {
            if owner == nil {
                sink.error("max_per_owner bounds each customer's rows: it needs owner: customer", at: node.position)
            } else if !(1...100_000).contains(value) {
                sink.error("max_per_owner is a count of rows from 1 to 100000", at: node.position)
            } else {
                entity.maxPerOwner = Int(value)
            }
        }
        for field in fields where field.onePerOwner {
            if owner == nil {
                sink.error("one_per_owner marks one row of each customer's: it needs owner: customer", at: field.position)
            }
            if field.type != .bool || field.optional || field.readonly {
                sink.error("one_per_owner needs a bool field that is not optional or readonly", at: field.position)
            }
        }
        for field in fields.filter(\.onePerOwner).dropFirst() {
            sink.error("an entity has one one_per_owner field at most", at: field.position)
        }
        if fields.contains(where: \.shopCurrency) {
            // The checks of the draft and the changes take the shop's currency under this name.
            for field in fields where field.name == "shop_currency" {
                sink.error(
                    "field name 'shop_currency' is taken by the shop's currency, which currency: shop checks against", at: field.position)
            }
        }
        return entity
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
                    if fieldsUnread {
                        valid = false
                        continue
                    }
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
            // Two groups named after one field would make one constraint name twice.
            let key = EntitySpec.constraintField(of: names)
            if valid, let other = groups.first(where: { EntitySpec.constraintField(of: $0) == key }) {
                sink.error(
                    "unique groups [\(other.joined(separator: ", "))] and [\(names.joined(separator: ", "))] both end in '\(key)', which names a group's constraint: end this one in another of its fields",
                    at: groupNode.position)
                valid = false
            }
            if valid { groups.append(names) }
        }
        return groups
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
        // Rows nobody owns are changed by staff or a signed-in customer, never anonymously.
        if entity != nil, entity?.owner == nil, auth == .public, let kind, [.update, .replace, .delete].contains(kind),
            let authNode = keys["auth"]
        {
            sink.error(
                "anyone could \(kind == .delete ? "delete" : "change") these rows without signing in: use auth: admin (staff) or customer, or give the entity an owner",
                at: authNode.position)
        }
        // Left unsaid, auth is customer: any signed-in customer would change, or read, every row
        // nobody owns (a forgotten `auth: admin` on the staff's routes: a shop's gift card codes
        // listed to every customer). That must be said.
        if entity != nil, entity?.owner == nil, keys["auth"] == nil, let kind, kind != .custom {
            let verb = [.list, .get].contains(kind) ? "read" : kind == .delete ? "delete" : kind == .create ? "create" : "change"
            let choices =
                [.list, .get].contains(kind)
                ? "auth: admin (staff), customer (any signed-in customer) or public (anyone)"
                : "auth: admin (staff), or auth: customer if any signed-in customer may"
            sink.error("say who may \(verb) rows no customer owns: \(choices), or give the entity an owner", at: node.position)
        }
        if let route, route.segments.starts(with: ["v1", "admin"]), auth != .admin {
            sink.error("a route under /v1/admin is the staff's: it needs auth: admin", at: keys["route"]!.position)
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
        useCase.background = bool(keys["background"], "background")
        if useCase.background && kind != .custom, let node = keys["background"] {
            sink.error("background work is a custom use case's: its logic starts it", at: node.position)
        }
        if useCase.background && input?.upload?.resumable == true, let node = keys["background"] {
            sink.error(
                "a resumable upload's logic may run on a request that finishes it later: it starts no background work", at: node.position)
        }
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
                if !fieldsUnread { sink.error("filter '\(name)' names no field of the entity", at: item.position) }
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
}
