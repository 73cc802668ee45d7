import Foundation

extension OpenAPIRenderer {
    /// A custom use case's path and query parameters, body and one response per outcome status
    /// (outcomes sharing a status are alternatives of one response).
    static func customOperation(
        _ names: SceneNames, _ useCase: UseCaseSpec, into operation: inout [String: Any], parameters: inout [[String: Any]],
        responses: inout [String: Any]
    ) {
        func json(_ schema: [String: Any]) -> [String: Any] { ["application/json": ["schema": schema]] }
        func object(_ fields: [FieldSpec], required: (FieldSpec) -> Bool) -> [String: Any] {
            var properties: [String: Any] = [:]
            for field in fields {
                let value = withDefault(schema(SwiftField(field: field, entity: ""), nullable: field.optional && !field.list), field)
                var list: [String: Any] = ["type": "array", "items": value]
                if let min = field.minItems { list["minItems"] = min }
                if let max = field.maxItems { list["maxItems"] = max }
                properties[field.name] = field.list ? list : value
            }
            return ["type": "object", "required": fields.filter(required).map(\.name), "properties": properties]
        }
        /// A body object's schema, its nested objects within; a list of them with its `minItems`
        /// and `maxItems`.
        func member(_ spec: InputObjectSpec) -> [String: Any] {
            var element = object(spec.fields) { !$0.optional && $0.defaultValue == nil }
            var properties = element["properties"] as? [String: Any] ?? [:]
            var required = element["required"] as? [String] ?? []
            for nested in spec.objects {
                properties[nested.name] = member(nested)
                if nested.required { required.append(nested.name) }
            }
            element["properties"] = properties
            element["required"] = required
            guard spec.list else { return element }
            var list: [String: Any] = ["type": "array", "items": element]
            if let min = spec.minItems { list["minItems"] = min }
            if let max = spec.maxItems { list["maxItems"] = max }
            return list
        }
        if let input = useCase.input {
            parameters = input.path.map { field in
                guard field.name != "id" || field.type != .uuid else { return ["$ref": "#/components/parameters/id"] }
                return [
                    "name": field.name, "in": "path", "required": true,
                    "schema": schema(SwiftField(field: field, entity: ""), nullable: false),
                ]
            }
            parameters += input.query.map { field in
                guard field.map else {
                    return [
                        "name": field.name, "in": "query", "required": !field.optional && field.defaultValue == nil,
                        "schema": withDefault(schema(SwiftField(field: field, entity: ""), nullable: false), field),
                    ]
                }
                // `option[size]=M` (the service reads `option.size=M` too).
                var map: [String: Any] = [
                    "type": "object", "additionalProperties": schema(SwiftField(field: field, entity: ""), nullable: false),
                ]
                if let max = field.maxItems { map["maxProperties"] = max }
                return ["name": field.name, "in": "query", "required": false, "style": "deepObject", "explode": true, "schema": map]
            }
            parameters += input.headers.map { field in
                [
                    "name": Names.header(field.name), "in": "header", "required": !field.optional && field.defaultValue == nil,
                    "schema": withDefault(schema(SwiftField(field: field, entity: ""), nullable: false), field),
                ]
            }
            if let upload = input.upload {
                let form: [String: Any] = [
                    "type": "object", "required": [upload.field],
                    "properties": [upload.field: ["type": "string", "format": "binary", "maxLength": upload.max]],
                ]
                operation["requestBody"] = ["required": true, "content": ["multipart/form-data": ["schema": form]]]
            }
            if let max = input.rawBodyMax {
                let bytes: [String: Any] = ["schema": ["type": "string", "format": "binary", "maxLength": max]]
                operation["requestBody"] = ["required": true, "content": ["*/*": bytes]]
            }
            if !input.body.isEmpty || !input.objects.isEmpty {
                var body = object(input.body) { !$0.optional && $0.defaultValue == nil }
                var properties = body["properties"] as? [String: Any] ?? [:]
                var required = body["required"] as? [String] ?? []
                for object in input.objects {
                    properties[object.name] = member(object)
                    if object.required { required.append(object.name) }
                }
                body["properties"] = properties
                body["required"] = required
                operation["requestBody"] = ["required": true, "content": json(body)]
            }
        }
        for status in Set(useCase.outcomes.map(\.status)).sorted() {
            let outcomes = useCase.outcomes.filter { $0.status == status }
            var schemas: [[String: Any]] = []
            var problems: [[String: Any]] = []
            // A 422 is also the input's own refusal, a plain problem naming the fields, whatever
            // members the logic's 422 outcome carries.
            let input = useCase.input
            var problem = status == 422 && input.map { !$0.all.isEmpty || !$0.objects.isEmpty || $0.upload != nil } ?? false
            for outcome in outcomes {
                switch outcome.body {
                case .fields(let fields) where status >= 400:
                    // A problem with the outcome's members beside its detail.
                    problems.append(["allOf": [ref("Problem"), object(fields) { !$0.optional }]])
                case .entity: schemas.append(ref(names.entity))
                case .fields(let fields): schemas.append(object(fields) { _ in true })
                case .model(let type): schemas.append(ref(type))
                case .page(let type): schemas.append(page(of: type))
                case .none: problem = problem || status >= 400
                }
            }
            var response: [String: Any] = ["description": outcomes.map(\.name).joined(separator: " or ")]
            var content: [String: Any] = [:]
            if !schemas.isEmpty { content["application/json"] = ["schema": alternatives(schemas)] }
            // Any refusal is also a plain problem, last: a client built from this document then
            // decodes a problem whose members a later release adds (an app already shipped met a
            // new 409 shape of the checkout it could not decode).
            if problem || (status >= 400 && !problems.isEmpty) { problems.append(ref("Problem")) }
            if !problems.isEmpty { content["application/problem+json"] = ["schema": alternatives(problems)] }
            if !content.isEmpty { response["content"] = content }
            if outcomes.allSatisfy({ $0.location != nil }) {
                response["headers"] = ["Location": ["description": "Where the answer's record is", "schema": ["type": "string"]]]
            }
            responses["\(status)"] = response
        }
        if let upload = useCase.input?.upload {
            let problem = problemResponse["content"]!
            var refusals = [
                ("413", "A file over \(upload.max) bytes"), ("415", "A body that is not multipart/form-data"),
                ("503", "Too many uploads being read; Retry-After says when to try again"),
            ]
            if useCase.auth != .admin {
                refusals.append(
                    ("429", "As many of the customer's or the address's uploads being read as one may; Retry-After says when to try again"))
            }
            for (status, description) in refusals where responses[status] == nil {
                responses[status] = ["description": description, "content": problem]
            }
            if upload.resumable {
                // Told in words: a schema for the raw alternative would invite clients (and
                // fuzzers) to send bytes without the headers that make them an upload.
                operation["description"] = """
                    Also takes the file as a resumable upload (draft-ietf-httpbis-resumable-upload, interop versions 3, 5 and 6): \
                    send Upload-Draft-Interop-Version and Upload-Complete (Upload-Incomplete in version 3) with the file's bytes as \
                    the body. An interim 104 answer, and Location on the final one, name the upload (/v1/uploads/{id}) where it is \
                    resumed, from any instance, until RESUMABLE_UPLOAD_TTL_SECONDS after its last byte; the finished file gets the \
                    answers below. An upload ended early answers 201 with Upload-Offset and no body.
                    """
            }
        }
        if let max = useCase.input?.rawBodyMax {
            responses["413"] = ["description": "A body over \(max) bytes", "content": problemResponse["content"]!]
        }
        if useCase.rateLimit != nil {
            responses["429"] = [
                "description": "Past the rate limit; Retry-After says when to try again", "content": problemResponse["content"]!,
            ]
        }
    }

    /// The shapes one status's outcomes answer with, each once: `anyOf`, not `oneOf`, since a
    /// problem with members also matches the plain problem, and under `oneOf` a body matching
    /// two alternatives matches none.
    private static func alternatives(_ schemas: [[String: Any]]) -> [String: Any] {
        var seen: Set<String> = []
        let distinct = schemas.filter { schema in
            let data = try! JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys])
            return seen.insert(String(decoding: data, as: UTF8.self)).inserted
        }
        return distinct.count == 1 ? distinct[0] : ["anyOf": distinct]
    }
}
