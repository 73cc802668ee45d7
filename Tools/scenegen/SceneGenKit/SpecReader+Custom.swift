import Yams

/// Where a field list sits, which decides the keys and rules its fields take.
enum FieldRole {
    /// An entity's column: every key.
    case entity
    /// A custom use case's input: a type and the rules a client's value is checked against.
    case input
    /// An answer's or a gateway call's member: a type, no rules.
    case plain

    var keys: [String] {
        switch self {
        case .entity: SpecFormat.fieldKeys
        case .input: SpecFormat.inputFieldKeys
        case .plain: SpecFormat.plainFieldKeys
        }
    }

    var what: String {
        switch self {
        case .entity: "field"
        case .input: "input field"
        case .plain: "output field"
        }
    }
}

extension SpecReader {
    /// Types a path parameter may have: one segment of text.
    static let pathTypes: [FieldType] = [.uuid, .string, .int, .bigint]
    /// Types a query parameter may have (money takes two values, so it goes in a body).
    static let queryTypes: [FieldType] = [.uuid, .string, .text, .int, .bigint, .bool, .timestamp]

    /// `input:` of a custom use case. Every route parameter gets a type: declared under `path`,
    /// or uuid for `{id}`.
    mutating func customInput(_ node: Node?, route: Route, routePosition: SourcePosition, auth: Auth) -> CustomInputSpec {
        let keys = node.map { mapping($0, "input", allowed: SpecFormat.inputKeys, required: []) } ?? [:]
        let path = fields(keys["path"], "path", allowed: Self.pathTypes, optionalAllowed: false)
        let query = fields(keys["query"], "query", allowed: Self.queryTypes, optionalAllowed: true)
        let headers = fields(keys["headers"], "header", allowed: Self.queryTypes, optionalAllowed: true)
        let bodyNodes = sequence(keys["body"], "body")
        let body = fields(nodes: bodyNodes.filter { !Self.isObject($0) }, "body", allowed: nil, optionalAllowed: true)
        let objects = bodyNodes.filter(Self.isObject).compactMap { inputObject($0) }
        var rawBodyMax: Int?
        if let rawNode = keys["raw_body"] {
            let rawKeys = mapping(rawNode, "raw_body", allowed: SpecFormat.rawBodyKeys, required: ["max"])
            if let max = int(rawKeys["max"], "max") {
                if (1...64 * 1024 * 1024).contains(max) {
                    rawBodyMax = Int(max)
                } else {
                    sink.error("raw_body max is a byte count from 1 to 67108864", at: rawKeys["max"]!.position)
                }
            }
            if keys["body"] != nil { sink.error("a raw body is read unparsed: it takes no body fields", at: rawNode.position) }
            if ["GET", "DELETE"].contains(route.method) { sink.error("a \(route.method) route takes no body", at: rawNode.position) }
        }
        var upload: UploadSpec?
        if let uploadNode = keys["upload"] {
            let uploadKeys = mapping(uploadNode, "upload", allowed: SpecFormat.uploadKeys, required: ["field", "max"])
            let field = self.name(uploadKeys["field"], "upload field")
            let max = int(uploadKeys["max"], "max")
            if let max, !(1...1024 * 1024 * 1024).contains(max) {
                sink.error("upload max is a byte count from 1 to 1073741824", at: uploadKeys["max"]!.position)
            }
            if keys["body"] != nil || keys["raw_body"] != nil {
                sink.error("an upload is the body (multipart): no body fields or raw_body beside it", at: uploadNode.position)
            }
            if route.method != "POST" && route.method != "PUT" {
                sink.error("an upload is sent with POST or PUT, not \(route.method)", at: uploadNode.position)
            }
            let resumable = bool(uploadKeys["resumable"], "resumable")
            if resumable, let node = uploadKeys["resumable"] {
                // The upload is resumed by its customer, maybe on another instance, from what
                // was kept of the first request: who sent it and the route's path.
                if auth != .customer {
                    sink.error("a resumable upload is resumed by the customer who started it: it needs auth: customer", at: node.position)
                }
                if keys["query"] != nil || keys["headers"] != nil || keys["session"] != nil {
                    sink.error(
                        "a resumable upload's route takes its input from the path only: no query, headers or session", at: node.position)
                }
            }
            if let field, let max {
                upload = UploadSpec(field: field, max: Int(max), precheck: bool(uploadKeys["precheck"], "precheck"), resumable: resumable)
            }
        }
        for field in path where !route.parameters.contains(field.name) {
            sink.error("path parameter '\(field.name)' is not in the route \(route)", at: field.position)
        }
        var typedPath: [FieldSpec] = []
        for parameter in route.parameters {
            if let declared = path.first(where: { $0.name == parameter }) {
                typedPath.append(declared)
            } else if parameter == "id" {
                typedPath.append(
                    FieldSpec(
                        name: "id", type: .uuid, primary: false, optional: false, defaultValue: nil, readonly: false, unique: false,
                        references: nil, min: nil, max: nil, position: routePosition))
            } else {
                sink.error(
                    "route parameter {\(parameter)} has no type: declare it under input.path, e.g. { name: \(parameter), type: uuid }",
                    at: routePosition)
            }
        }
        if let bodyNode = keys["body"], route.method == "GET" {
            sink.error("a \(route.method) route takes no body; use input.query", at: bodyNode.position)
        }
        let all = typedPath + query + headers + body
        checkUnique(all.map(\.name) + objects.map(\.name), positions: all.map(\.position) + objects.map(\.position), "input field")
        let session = bool(keys["session"], "session")
        if session && auth != .customer, let node = keys["session"] {
            sink.error("session: true carries the customer's session token: only customer routes have one", at: node.position)
        }
        if session, let clash = all.first(where: { $0.name == "session_token" }) {
            sink.error("'session_token' is the session's token, which session: true adds", at: clash.position)
        }
        if auth == .customer, let clash = all.first(where: { $0.name == "customer_id" }) {
            sink.error("'customer_id' is the signed-in customer, which the input of a customer route carries already", at: clash.position)
        }
        var input = CustomInputSpec(path: typedPath, query: query, body: body)
        input.headers = headers
        input.rawBodyMax = rawBodyMax
        input.upload = upload
        input.objects = objects
        input.session = session
        return input
    }

    /// A list of input fields whose types must be among `allowed` (any when `nil`).
    private mutating func fields(_ node: Node?, _ what: String, allowed: [FieldType]?, optionalAllowed: Bool) -> [FieldSpec] {
        fields(nodes: sequence(node, what), what, allowed: allowed, optionalAllowed: optionalAllowed)
    }

    private mutating func fields(nodes: [Node], _ what: String, allowed: [FieldType]?, optionalAllowed: Bool) -> [FieldSpec] {
        var fields: [FieldSpec] = []
        for fieldNode in nodes {
            guard let field = field(fieldNode, role: .input) else { continue }
            if let allowed, !allowed.contains(field.type), !field.type.isEnumeration {
                sink.error(
                    "a \(what) parameter cannot be of type \(field.type.name) (allowed: \(allowed.map(\.name).joined(separator: ", ")), enum)",
                    at: fieldNode.position)
            }
            if !optionalAllowed && (field.optional || field.defaultValue != nil) {
                sink.error("a path parameter is always present: no optional, no default", at: fieldNode.position)
            }
            if field.list && allowed != nil {
                sink.error("a \(what) parameter is one value: a list goes in the body", at: fieldNode.position)
            }
            if field.map && what != "query" {
                sink.error("map: true reads query parameters (option.size=M): a \(what) field is not one", at: fieldNode.position)
            }
            fields.append(field)
        }
        return fields
    }

    /// Whether a body member (or an object's) is an object: it has `fields`.
    static func isObject(_ node: Node) -> Bool {
        if case .mapping(let mapping) = node { return mapping["fields"] != nil }
        return false
    }

    /// A body member with `fields`: an object (or a list of them) of input fields, lists of
    /// values and objects in turn (at most `depth` levels deep).
    private mutating func inputObject(_ node: Node, depth: Int = 1) -> InputObjectSpec? {
        let keys = mapping(node, "body object", allowed: SpecFormat.inputObjectKeys, required: ["name", "type", "fields"])
        let name = self.name(keys["name"], "body field name")
        let type = string(keys["type"], "object type")
        if let type, !Names.isUpperCamelCase(type) || Names.swiftKeywords.contains(type) {
            sink.error("object type '\(type)' must be an UpperCamelCase name for its Swift type, as RefundLine", at: keys["type"]!.position)
        }
        let memberNodes = sequence(keys["fields"], "fields")
        if memberNodes.isEmpty { sink.error("an object lists at least one field", at: (keys["fields"] ?? node).position) }
        let objectNodes = memberNodes.filter(Self.isObject)
        if depth >= 3, let nested = objectNodes.first {
            sink.error("objects nest at most 3 deep: flatten this one into its parent's fields", at: nested.position)
        }
        let objects = depth >= 3 ? [] : objectNodes.compactMap { inputObject($0, depth: depth + 1) }
        let fieldNodes = memberNodes.filter { !Self.isObject($0) }
        let allowed: [FieldType] = [.uuid, .string, .text, .int, .bigint, .bool, .money]
        var fields: [FieldSpec] = []
        for fieldNode in fieldNodes {
            guard let field = field(fieldNode, role: .input) else { continue }
            if field.map {
                sink.error("map: true reads query parameters (option.size=M): an object's field is not one", at: fieldNode.position)
            }
            if !allowed.contains(field.type) && !field.type.isEnumeration || field.partial {
                sink.error(
                    "a field of an object is uuid, string, text, int, bigint, bool, money or enum, not \(field.partial ? "a partial money" : field.type.name)",
                    at: fieldNode.position)
            }
            fields.append(field)
        }
        checkUnique(
            fields.map(\.name) + objects.map(\.name), positions: fields.map(\.position) + objects.map(\.position), "object field")
        let list = bool(keys["list"], "list")
        var maxItems: Int?
        if let node = keys["max_items"] {
            if !list { sink.error("max_items bounds a list: it needs list: true", at: node.position) }
            maxItems = itemCount(node, "max_items")
        }
        let minItems = self.minItems(keys, list: list, maxItems: maxItems)
        guard let name, let type, fields.count == fieldNodes.count, objects.count == objectNodes.count, !memberNodes.isEmpty
        else { return nil }
        var object = InputObjectSpec(
            name: name, type: type, list: list, optional: bool(keys["optional"], "optional"), fields: fields, position: node.position)
        object.maxItems = maxItems
        object.minItems = minItems
        object.objects = objects
        return object
    }

    /// `outcomes:` of a custom use case.
    mutating func outcomes(_ node: Node?) -> [OutcomeSpec] {
        let nodes = sequence(node, "outcomes")
        if let node, nodes.isEmpty { sink.error("outcomes must list at least one outcome", at: node.position) }
        let outcomes = nodes.compactMap { outcome($0, allowed: SpecFormat.outcomeKeys, statuses: 200...599) }
        checkUnique(outcomes.map(\.name), positions: outcomes.map(\.position), "outcome")
        return outcomes
    }

    /// `{ name, status, body }`; `statuses` is the range the status must fall in.
    mutating func outcome(_ node: Node, allowed: [String], statuses: ClosedRange<Int>) -> OutcomeSpec? {
        let what = allowed.contains("body") ? "outcome" : "operation error"
        let keys = mapping(node, what, allowed: allowed, required: ["name", "status"])
        let name = self.name(keys["name"], "\(what) name")
        let status = int(keys["status"], "status").map(Int.init)
        if let status, !statuses.contains(status) {
            sink.error("status \(status) is outside \(statuses.lowerBound)-\(statuses.upperBound)", at: keys["status"]!.position)
        }
        var body = OutcomeSpec.Body.none
        if let bodyNode = keys["body"] {
            if case .scalar(let scalar) = bodyNode, scalar.string == "entity" {
                body = .entity
            } else if let named = namedBody(bodyNode) {
                body = named
            } else if case .scalar = bodyNode {
                sink.error(
                    "body must be 'entity' (the scene's entity), a model or entity's name, { page: Name } or a list of fields",
                    at: bodyNode.position)
            } else {
                let fieldNodes = sequence(bodyNode, "body")
                let fields = fieldNodes.compactMap { field($0, role: .plain) }
                checkUnique(fields.map(\.name), positions: fields.map(\.position), "body field")
                if fieldNodes.isEmpty {
                    sink.error("body lists no fields; leave it out for an answer without a body", at: bodyNode.position)
                }
                if fields.count != fieldNodes.count { return nil }
                body = .fields(fields)
            }
            if status == 204 { sink.error("a 204 answer has no body", at: bodyNode.position) }
        }
        var detail: String?
        if let detailNode = keys["detail"] { detail = string(detailNode, "detail") }
        var fieldErrors: [OutcomeFieldError] = []
        for errorNode in sequence(keys["errors"], "errors") {
            let errorKeys = mapping(errorNode, "field error", allowed: SpecFormat.outcomeErrorKeys, required: ["field", "message"])
            if let field = fieldPath(errorKeys["field"]), let message = string(errorKeys["message"], "message") {
                fieldErrors.append(OutcomeFieldError(field: field, message: message))
            }
        }
        if let status, status < 400, let extra = keys["detail"] ?? keys["errors"] {
            sink.error("detail and errors describe a problem: only an outcome of status 400 or more has them", at: extra.position)
        }
        if let status, status >= 400, let bodyNode = keys["body"] {
            checkProblemBody(body, detail: detail, errors: fieldErrors, at: bodyNode.position)
        } else {
            checkPlaceholders([detail].compactMap { $0 } + fieldErrors.map(\.message), members: [], at: node.position)
        }
        guard let name, let status else { return nil }
        var location: String?
        if let locationNode = keys["location"], let text = string(locationNode, "location") {
            location = text
            if !text.hasPrefix("/") || text.contains(where: \.isWhitespace) {
                sink.error("location is a path of this service, as \"/v1/items/{id}\"", at: locationNode.position)
            }
            if !(200..<400).contains(status) {
                sink.error("location belongs to a success or a redirect (status 200-399)", at: locationNode.position)
            }
        }
        let logicErrors = bool(keys["logic_errors"], "logic_errors")
        if logicErrors && status < 400, let node = keys["logic_errors"] {
            sink.error("logic_errors are a problem's field errors: only an outcome of status 400 or more has them", at: node.position)
        }
        if status < 400, case .fields(let fields) = body, let listed = fields.first(where: \.list) {
            sink.error(
                "a list member ('\(listed.name)') belongs to a problem (status 400 or more); an answer's lists are models'",
                at: listed.position)
        }
        var outcome = OutcomeSpec(name: name, status: status, body: body, position: node.position)
        outcome.location = location
        outcome.logicErrors = logicErrors
        outcome.detail = detail
        outcome.fieldErrors = fieldErrors
        return outcome
    }

    /// One of an http gateway's `operations`.
    mutating func operation(_ node: Node) -> GatewayOperationSpec? {
        let keys = mapping(node, "operation", allowed: SpecFormat.operationKeys, required: ["name", "request"])
        let name = self.name(keys["name"], "operation name")
        var route: Route?
        if let requestNode = keys["request"], let text = string(requestNode, "request") {
            route = Route(text)
            if route == nil {
                sink.error(
                    "request '\(text)' must be 'METHOD /path' under the base URL, with METHOD one of \(Route.methods.joined(separator: ", "))",
                    at: requestNode.position)
            }
        }
        let inputNodes = sequence(keys["input"], "input")
        let input = inputNodes.compactMap { field($0, role: .plain) }
        checkUnique(input.map(\.name), positions: input.map(\.position), "input field")
        for field in input where field.list { sink.error("a list is a problem's member only, not a gateway call's", at: field.position) }
        let outputNodes = sequence(keys["output"], "output")
        let output = outputNodes.compactMap { field($0, role: .plain) }
        for field in output where field.list { sink.error("a list is a problem's member only, not a gateway call's", at: field.position) }
        checkUnique(output.map(\.name), positions: output.map(\.position), "output field")
        let errors = sequence(keys["errors"], "errors").compactMap {
            outcome($0, allowed: SpecFormat.operationErrorKeys, statuses: 400...599)
        }
        checkUnique(errors.map(\.name), positions: errors.map(\.position), "operation error")
        if let route, let requestNode = keys["request"] {
            for parameter in route.parameters {
                guard let field = input.first(where: { $0.name == parameter }) else {
                    sink.error("request path parameter {\(parameter)} is not one of the operation's input fields", at: requestNode.position)
                    continue
                }
                if field.optional || !(Self.pathTypes.contains(field.type) || field.type.isEnumeration) {
                    sink.error(
                        "input field '\(parameter)' fills the path: it must be a required uuid, string, int, bigint or enum",
                        at: field.position)
                }
            }
            if ["GET", "DELETE"].contains(route.method), let extra = input.first(where: { !route.parameters.contains($0.name) }) {
                sink.error(
                    "a \(route.method) request sends no body: input field '\(extra.name)' must be a path parameter", at: extra.position)
            }
        }
        guard let name, let route, input.count == inputNodes.count, output.count == outputNodes.count else { return nil }
        return GatewayOperationSpec(name: name, route: route, input: input, output: output, errors: errors, position: node.position)
    }
}

extension Route {
    /// The first pair of differently named parameters at one place of two routes that share
    /// the path before it, whatever their methods: the router keeps one name per place in its
    /// tree (`/v1/x/{id}` and `/v1/x/{slot}/y` cannot both be served).
    func parameterNameConflict(with other: Route) -> (String, String)? {
        for (mine, theirs) in zip(segments, other.segments) {
            let bothParameters = mine.hasPrefix("{") && theirs.hasPrefix("{")
            if bothParameters && mine != theirs { return (String(mine.dropFirst().dropLast()), String(theirs.dropFirst().dropLast())) }
            if mine != theirs { return nil }
        }
        return nil
    }
}

extension FieldType {
    var isEnumeration: Bool {
        if case .enumeration = self { return true }
        return false
    }
}

extension SpecReader {
    /// `rate_limit: password_check` or `{ class: password_check, when: current_password }`.
    mutating func rateLimit(_ node: Node?, auth: Auth, input: CustomInputSpec?) -> RateLimitSpec? {
        guard let node else { return nil }
        let classNode: Node?
        var when: String?
        if case .scalar = node {
            classNode = node
        } else {
            let keys = mapping(node, "rate_limit", allowed: SpecFormat.rateLimitKeys, required: ["class"])
            classNode = keys["class"]
            if let whenNode = keys["when"] {
                when = self.name(whenNode, "when")
                if let when, !(input?.body.contains { $0.name == when && $0.optional } ?? false) {
                    sink.error("rate_limit 'when' names '\(when)', which is no optional field of the input's body", at: whenNode.position)
                }
            }
        }
        let known = RateLimitSpec.Class.allCases.map(\.rawValue).joined(separator: ", ")
        guard let classNode, let text = string(classNode, "class") else { return nil }
        guard let value = RateLimitSpec.Class(rawValue: text) else {
            sink.error("unknown rate_limit class '\(text)' (known: \(known))", at: classNode.position)
            return nil
        }
        if value.perCustomer && auth != .customer {
            sink.error("rate_limit class '\(text)' counts per signed-in customer: only customer routes have one", at: node.position)
        }
        if value == .signIn, !(input?.body.contains { $0.name == "email" && !$0.optional } ?? false) {
            sink.error("rate_limit class 'sign_in' counts per account: the input's body needs a required 'email'", at: node.position)
        }
        return RateLimitSpec(class: value, when: when)
    }
}

extension SpecReader {
    /// A field error's field: the member it names as the answer's errors do, snake_case names
    /// joined by dots for a member of an object (`amount.amount`).
    mutating func fieldPath(_ node: Node?) -> String? {
        guard let node, let path = string(node, "field") else { return nil }
        guard path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ Names.isSnakeCase(String($0)) }) else {
            sink.error("field '\(path)' must be snake_case names joined by dots (amount.currency)", at: node.position)
            return nil
        }
        return path
    }

    /// An answer of status 400 or more is problem+json: its body can only be fields, written as
    /// the problem's members beside `detail` (which, like the field errors' messages, may name
    /// them as `{name}`; money reads there as a price, `¥1,200`, and is an `{"amount",
    /// "currency"}` member).
    mutating func checkProblemBody(_ body: OutcomeSpec.Body, detail: String?, errors: [OutcomeFieldError], at position: SourcePosition) {
        guard case .fields(let fields) = body else {
            if body != .none {
                sink.error(
                    "an answer of status 400 or more is problem+json: its body is a list of fields, the problem's members beside its detail",
                    at: position)
            }
            return
        }
        for field in fields where field.list && ![.uuid, .string, .text].contains(field.type) && !field.type.isEnumeration {
            sink.error("a problem's list member '\(field.name)' holds uuid, string, text or enum values", at: field.position)
        }
        // An optional member, or a list, has no one text to put in a sentence.
        checkPlaceholders(
            [detail].compactMap { $0 } + errors.map(\.message), members: fields.filter { !$0.optional && !$0.list }.map(\.name),
            at: position)
    }

    /// Every `{name}` in `texts` names one of `members`.
    mutating func checkPlaceholders(_ texts: [String], members: [String], at position: SourcePosition) {
        for text in texts {
            for placeholder in OutcomeSpec.placeholders(in: text) where !members.contains(placeholder) {
                sink.error(
                    "'{\(placeholder)}' in \"\(text)\" names no field of the outcome's body\(members.isEmpty ? " (it has none)" : "")",
                    at: position)
            }
        }
    }
}
