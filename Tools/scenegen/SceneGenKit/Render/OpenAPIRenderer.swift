import Foundation
import Yams

/// The OpenAPI 3.1 document of the whole API: the operations and schemas of every generated
/// scene, rendered from its spec, merged with `Specs/OpenAPI/handwritten.yml` (the hand-written
/// scenes' operations), plus the components every operation shares. Written as a resource of the
/// HTTP module, so the service serves exactly what scenegen checked.
enum OpenAPIRenderer {
    static let handwrittenPath = "Specs/OpenAPI/handwritten.yml"
    /// Where the document is written: the HTTP module loads it once at startup.
    static let resourcePath = "Sources/HTTP/Resources/openapi.json"

    /// The document as JSON (sorted keys, indented, so diffs read well and runs are byte for
    /// byte the same), or the problems that keep it from being complete.
    static func document(specs: [SceneSpec], handwritten: String) -> (json: String?, errors: [String]) {
        var errors: [String] = []
        var paths: [String: [String: Any]] = [:]
        var schemas = sharedSchemas
        let partial = specs.flatMap(\.useCases).contains { $0.input?.body.contains(where: \.partial) == true }
        if !partial { schemas["MoneyChange"] = nil }
        var parameters = sharedParameters
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: handwritten)
        } catch {
            return (nil, ["\(handwrittenPath):1:1: error: YAML syntax: \(error)"])
        }
        let fragment = plain(loaded) as? [String: Any] ?? [:]
        for key in memberlessKeys(fragment) {
            errors.append(
                "\(handwrittenPath):1:1: error: '\(key)' has no value: a comma in unquoted text inside { } ends the text there (quote it)")
        }
        for (path, operations) in fragment["paths"] as? [String: Any] ?? [:] {
            paths[path] = operations as? [String: Any] ?? [:]
        }
        let components = fragment["components"] as? [String: Any] ?? [:]
        for (name, schema) in components["schemas"] as? [String: Any] ?? [:] { schemas[name] = schema }
        for (name, parameter) in components["parameters"] as? [String: Any] ?? [:] { parameters[name] = parameter }

        for spec in specs where !spec.handwritten {
            let names = SceneNames(spec: spec)
            if spec.entity != nil { for (name, schema) in entitySchemas(names) { schemas[name] = schema } }
            for model in spec.models { schemas[model.name] = modelSchema(model) }
            for useCase in spec.useCases {
                let path = useCase.route.path
                let method = useCase.route.method.lowercased()
                if paths[path]?[method] != nil {
                    errors.append(
                        "\(spec.file):\(useCase.position.line):\(useCase.position.column): error: \(useCase.route) is also in \(handwrittenPath)"
                    )
                }
                let referenced =
                    spec.entity.map { entity in
                        specs.contains { $0.entity?.fields.contains { $0.references == entity.table } ?? false }
                    } ?? false
                paths[path, default: [:]][method] = operation(names, useCase, referenced: referenced)
            }
        }
        for name in schemaReferences(in: [paths, schemas]) where name.hasPrefix("Nullable") && schemas[name] == nil {
            guard var twin = schemas[String(name.dropFirst("Nullable".count))] as? [String: Any], twin["type"] as? String == "object"
            else { continue }
            twin["type"] = ["object", "null"]
            schemas[name] = twin
        }
        for name in schemaReferences(in: [paths, schemas]).sorted() where schemas[name] == nil {
            errors.append(
                "\(handwrittenPath):1:1: error: the document refers to the schema \(name), which neither a spec nor this file's components declare (an optional member's Nullable<Name> needs <Name> to be an object)"
            )
        }
        // Every route a spec names is in the document, whoever wrote its operation.
        let described = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(normalized(path))" } })
        for spec in specs {
            for useCase in spec.useCases where !described.contains("\(useCase.route.method) \(normalized(useCase.route.path))") {
                errors.append(
                    "\(spec.file):\(useCase.position.line):\(useCase.position.column): error: \(useCase.route) is not in the API document; describe it in \(handwrittenPath)"
                )
            }
        }
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": [
                "title": "Storefront", "version": "1.0.0",
                "description": "The shop's JSON API. Errors are RFC 9457 problem documents (application/problem+json).",
            ],
            "paths": paths,
            "components": [
                "schemas": schemas, "parameters": parameters,
                "responses": ["Problem": problemResponse],
                "securitySchemes": [
                    "customer": ["type": "http", "scheme": "bearer", "description": "a session token from POST /v1/sessions"],
                    "admin": ["type": "http", "scheme": "bearer", "description": "the ADMIN_TOKEN"],
                ],
            ],
        ]
        guard errors.isEmpty else { return (nil, errors) }
        let data = try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return (String(decoding: data, as: UTF8.self) + "\n", [])
    }

    /// `/v1/items/{id}/reviews` and `/v1/items/{item_id}/reviews` are one route.
    static func normalized(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix("{") || $0.hasPrefix(":") ? "{}" : String($0) }
            .joined(separator: "/")
    }

    /// Keys whose value is null, anywhere in the fragment, by their path: none belongs in a
    /// document, and `{ description: A, B, content: ... }` makes one (`B`).
    private static func memberlessKeys(_ value: Any, at path: String = "") -> [String] {
        if let dictionary = value as? [String: Any] {
            return dictionary.keys.sorted().flatMap { key -> [String] in
                let place = path.isEmpty ? key : "\(path) > \(key)"
                guard let member = dictionary[key], !(member is NSNull) else { return [place] }
                return memberlessKeys(member, at: place)
            }
        }
        if let array = value as? [Any] { return array.flatMap { memberlessKeys($0, at: path) } }
        return []
    }

    /// YAML's dictionaries with JSON-ready keys and values.
    private static func plain(_ value: Any?) -> Any? {
        switch value {
        case let dictionary as [AnyHashable: Any]:
            var out: [String: Any] = [:]
            for (key, element) in dictionary { out["\(key)"] = plain(element) }
            return out
        case let dictionary as [String: Any]:
            return dictionary.mapValues { plain($0) as Any }
        case let array as [Any]:
            return array.map { plain($0) as Any }
        default:
            return value
        }
    }

    static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    /// An object schema or null, as a reference to `Nullable<name>`: the named schema with
    /// `"type": ["object", "null"]`, which `document` adds. Not `oneOf: [$ref, {type: null}]`,
    /// which swift-openapi-generator (1.14) drops with its member, nor a `$ref` beside
    /// `type: [object, null]`, which a JSON Schema validator reads as never null.
    static func nullable(_ name: String) -> [String: Any] { ref("Nullable\(name)") }

    /// The schemas referenced anywhere in `values`, by name.
    private static func schemaReferences(in values: [Any]) -> Set<String> {
        let prefix = "#/components/schemas/"
        var found: Set<String> = []
        func walk(_ value: Any) {
            if let dictionary = value as? [String: Any] {
                if let target = dictionary["$ref"] as? String, target.hasPrefix(prefix) {
                    found.insert(String(target.dropFirst(prefix.count)))
                }
                dictionary.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        values.forEach(walk)
        return found
    }

    static var problemResponse: [String: Any] {
        [
            "description": "An RFC 9457 problem document", "content": ["application/problem+json": ["schema": ref("Problem")]],
        ]
    }

    private static var sharedSchemas: [String: Any] {
        [
            "Money": [
                "type": "object", "required": ["amount", "currency"],
                "properties": ["amount": ["type": "integer"], "currency": ["type": "string", "pattern": "^[A-Z]{3}$"]],
            ],
            "MoneyChange": [
                "type": "object", "minProperties": 1, "description": "A change of amount, currency or both",
                "properties": ["amount": ["type": "integer"], "currency": ["type": "string", "pattern": "^[A-Z]{3}$"]],
            ],
            "Problem": [
                "type": "object", "required": ["type", "title", "status", "detail"],
                "properties": [
                    "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"], "detail": ["type": "string"],
                    "errors": [
                        "type": "array",
                        "items": [
                            "type": "object", "required": ["field", "message"],
                            "properties": ["field": ["type": "string"], "message": ["type": "string"]],
                        ],
                    ],
                ],
            ],
        ]
    }

    private static var sharedParameters: [String: Any] {
        [
            "id": ["name": "id", "in": "path", "required": true, "schema": ["type": "string", "format": "uuid"]],
            "cursor": ["name": "cursor", "in": "query", "schema": ["type": "string"]],
        ]
    }

    private static func operation(_ names: SceneNames, _ useCase: UseCaseSpec, referenced: Bool) -> [String: Any] {
        var operation: [String: Any] = ["operationId": "\(names.scene).\(useCase.name)", "tags": [names.scene]]
        switch useCase.auth {
        case .public: break
        case .customer: operation["security"] = [["customer": [String]()]]
        case .admin: operation["security"] = [["admin": [String]()]]
        }
        var parameters: [[String: Any]] = useCase.route.parameters.map { name in
            if name == "id" { return ["$ref": "#/components/parameters/id"] }
            // A CRUD route's parent is a row's id; a custom route's parameters are the user's.
            let schema = name == names.parent?.name && useCase.kind != .custom ? ["type": "string", "format": "uuid"] : ["type": "string"]
            return ["name": name, "in": "path", "required": true, "schema": schema]
        }
        func json(_ schema: [String: Any]) -> [String: Any] { ["application/json": ["schema": schema]] }
        var responses: [String: Any] = ["default": ["$ref": "#/components/responses/Problem"]]
        responses.merge(recordRefusals(names, useCase, referenced: referenced)) { kept, _ in kept }
        switch useCase.kind {
        case .create:
            operation["requestBody"] = ["required": true, "content": json(ref("\(names.entity)Create"))]
            responses["201"] = ["description": "Created", "content": json(ref(names.entity))]
        case .list:
            // The route's own page size is what an absent limit means.
            let limit: [String: Any] = ["type": "integer", "minimum": 1, "maximum": 100, "default": useCase.page ?? 20]
            parameters += [["name": "limit", "in": "query", "schema": limit], ["$ref": "#/components/parameters/cursor"]]
            for field in names.fields where useCase.filters.contains(field.name) {
                let schema: [String: Any] =
                    switch field.field.type {
                    case .enumeration(let values): ["type": "string", "enum": values]
                    case .uuid: ["type": "string", "format": "uuid"]
                    case .bool: ["type": "boolean"]
                    case .int, .bigint: ["type": "integer"]
                    default: ["type": "string"]
                    }
                parameters.append([
                    "name": field.name, "in": "query", "required": false, "schema": schema,
                    "description": "Only records whose \(field.name) equals this",
                ])
            }
            responses["200"] = ["description": "A page, newest first", "content": json(ref("\(names.entity)Page"))]
        case .get:
            responses["200"] = ["description": "The record", "content": json(ref(names.entity))]
        case .update:
            operation["requestBody"] = ["required": true, "content": json(ref("\(names.entity)Patch"))]
            responses["200"] = ["description": "The changed record", "content": json(ref(names.entity))]
        case .replace:
            operation["requestBody"] = ["required": true, "content": json(ref("\(names.entity)Create"))]
            responses["200"] = ["description": "The record as replaced", "content": json(ref(names.entity))]
        case .delete:
            responses["204"] = ["description": "Deleted"]
        case .custom:
            customOperation(names, useCase, into: &operation, parameters: &parameters, responses: &responses)
        }
        if !parameters.isEmpty { operation["parameters"] = parameters }
        operation["responses"] = responses
        return operation
    }

    /// The JSON Schema of a field's value, with the spec's bounds.
    static func schema(_ field: SwiftField, nullable: Bool) -> [String: Any] {
        let f = field.field
        var schema: [String: Any]
        switch f.type {
        case .uuid: schema = ["type": "string", "format": "uuid"]
        case .string, .text:
            schema = ["type": "string"]
            if let min = f.min { schema["minLength"] = min }
            if let max = f.max { schema["maxLength"] = max }
        case .int, .bigint:
            schema = ["type": "integer"]
            if let min = f.min { schema["minimum"] = min }
            if let max = f.max { schema["maximum"] = max }
        case .bool: schema = ["type": "boolean"]
        case .number: schema = ["type": "number"]
        case .money:
            let money = f.partial ? "MoneyChange" : "Money"
            return nullable ? Self.nullable(money) : ref(money)
        case .timestamp: schema = ["type": "string", "format": "date-time"]
        case .enumeration(let values):
            // A type beside the values, or a generator types the member as any JSON value.
            return ["type": nullable ? ["string", "null"] : "string", "enum": (values as [Any]) + (nullable ? [NSNull()] : [])]
        }
        if nullable, let type = schema["type"] as? String { schema["type"] = [type, "null"] }
        return schema
    }

    /// `E`, `EPage`, and the bodies its routes take: `ECreate` (create, replace) and `EPatch`
    /// (update), with the spec's bounds. A body no route takes is not described: a client
    /// generated from the document would offer a request the service does not answer.
    private static func entitySchemas(_ names: SceneNames) -> [String: Any] {
        var properties: [String: Any] = [:]
        for field in names.fields { properties[field.name] = schema(field, nullable: field.field.optional) }
        if names.owned { properties["customer_id"] = ["type": "string", "format": "uuid"] }
        let entity: [String: Any] = ["type": "object", "required": Array(properties.keys).sorted(), "properties": properties]
        var create: [String: Any] = [:]
        var patch: [String: Any] = [:]
        for field in names.writable {
            create[field.name] = staffOnly(withDefault(schema(field, nullable: false), field.field), field)
            // JSON merge patch: null removes a field that may be absent; the others take no null.
            patch[field.name] = staffOnly(schema(field, nullable: field.field.optional), field)
        }
        let kinds = Set(names.spec.useCases.map(\.kind))
        var schemas: [String: Any] = [names.entity: entity, "\(names.entity)Page": page(of: names.entity)]
        if !kinds.isDisjoint(with: [.create, .replace]) {
            schemas["\(names.entity)Create"] = [
                "type": "object", "required": names.writable.filter(\.requiredOnCreate).map(\.name), "properties": create,
            ]
        }
        if kinds.contains(.update) { schemas["\(names.entity)Patch"] = ["type": "object", "properties": patch] }
        return schemas
    }

    /// A field a request may leave out says what it then is (`default`; `now` is no JSON value).
    static func withDefault(_ schema: [String: Any], _ field: FieldSpec) -> [String: Any] {
        var described = schema
        switch field.defaultValue {
        case .int(let number): described["default"] = number
        case .bool(let flag): described["default"] = flag
        case .string(let text): described["default"] = text
        case .now, nil: break
        }
        return described
    }

    /// An `admin_only` field's schema says so: the body is one schema for staff and customers.
    private static func staffOnly(_ schema: [String: Any], _ field: SwiftField) -> [String: Any] {
        guard field.field.adminOnly else { return schema }
        var described = schema
        described["description"] = "Written by staff (admin routes) only: another caller's request that sets it is refused (422)."
        return described
    }

    /// `{"data": [T...], "next_cursor"}`.
    static func page(of type: String) -> [String: Any] {
        [
            "type": "object", "required": ["data", "next_cursor"],
            "properties": ["data": ["type": "array", "items": ref(type)], "next_cursor": ["type": ["string", "null"]]],
        ]
    }

    /// A model's schema: every member required (each is written, `null` included).
    private static func modelSchema(_ model: ModelSpec) -> [String: Any] {
        var properties: [String: Any] = [:]
        for field in model.fields {
            let value: [String: Any]
            switch field.value {
            case .field(let spec): value = schema(SwiftField(field: spec, entity: ""), nullable: field.optional && !field.list)
            case .named(let type): value = field.optional && !field.list ? nullable(type) : ref(type)
            }
            properties[field.name] =
                field.list ? ["type": "array", "items": value] : field.map ? ["type": "object", "additionalProperties": value] : value
        }
        return ["type": "object", "required": model.fields.map(\.name), "properties": properties]
    }
}
