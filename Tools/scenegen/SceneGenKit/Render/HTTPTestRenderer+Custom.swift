extension HTTPTestRenderer {
    /// A custom use case's contract, whatever its hand-written logic does: a valid input reaches
    /// it (one of its outcomes, 502 when an API it calls is down, 422 when the logic refuses a
    /// value by a rule the spec cannot state, as an email's shape; never the 501 of logic not
    /// written yet, unless the layout stubs it), a missing or invalid field is a 422 naming the
    /// field before the logic runs.
    func customTest(_ useCase: UseCaseSpec, into out: inout CodeWriter) {
        let input = useCase.input ?? CustomInputSpec(path: [], query: [], body: [])
        let path = useCase.route.segments.map { segment -> String in
            guard segment.hasPrefix("{"), let field = input.path.first(where: { "{\($0.name)}" == segment }) else { return segment }
            switch field.type {
            case .uuid: return "\\(UUID())"
            case .enumeration(let values): return Samples.enumValue(field, values)
            case .int, .bigint: return "\(Samples.integer(field, preferring: 1))"
            default: return String(repeating: "a", count: Samples.length(field))
            }
        }.reduce("") { $0 + "/" + $1 }
        let query = input.query.filter { !$0.optional && $0.defaultValue == nil }.map { "\($0.name)=\(queryValue($0))" }
        let url = path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let method = useCase.route.method.lowercased()
        let token = self.token(useCase)
        // Required objects carry their required members (a list, one element).
        // The first list of objects, sent with an empty element to see its errors named by place.
        let emptied = input.objects.first {
            $0.list && ($0.fields.contains { !$0.optional && $0.defaultValue == nil } || $0.objects.contains(where: \.required))
        }
        func objects(emptying: InputObjectSpec? = nil) -> [String] {
            input.objects.filter { $0.required || $0 == emptying }.map { object -> String in
                let element = object == emptying ? "{}" : Samples.objectJSON(object, reference: "UUID()")
                return "\"\(object.name)\": " + (object.list ? "[\(element)]" : element)
            }
        }
        func body(_ fields: [FieldSpec], replacing: FieldSpec? = nil, with value: String? = nil, emptying: InputObjectSpec? = nil)
            -> String
        {
            let members = fields.map { field in
                "\"\(field.name)\": " + (field == replacing ? value! : Samples.inputJSON(field, reference: "UUID()"))
            }
            return ", json: #\"{" + (members + objects(emptying: emptying)).joined(separator: ", ") + "}\"#"
        }
        let required = input.body.filter { !$0.optional && $0.defaultValue == nil }
        let requiredHeaders = input.headers.filter { !$0.optional && $0.defaultValue == nil }
            .map { "\(swiftString(Names.header($0.name))): \(swiftString(queryValue($0)))" }
        // Headers after the token: an upload's content type, then required header fields.
        let headers =
            (input.upload == nil ? "" : ", contentType: \"multipart/form-data; boundary=sgb\"")
            + (requiredHeaders.isEmpty ? "" : ", headers: .named([\(requiredHeaders.joined(separator: ", "))])")
        // An upload's valid request: a small file in its field (its bytes are the logic's to judge).
        let json =
            input.upload.map { Self.multipart($0.field) }
            ?? (input.rawBodyMax != nil ? ", json: \"{}\"" : input.body.isEmpty && input.objects.isEmpty ? "" : body(required))
        var statuses = Set(useCase.outcomes.map(\.status))
        if logicIsStubbed { statuses.insert(501) }
        if !useCase.gateways.isEmpty { statuses.insert(502) }
        if !input.all.isEmpty { statuses.insert(422) }
        appTest("\(Names.camelCase(useCase.name))ChecksItsInputBeforeItsLogic", into: &out) { out in
            out.line("let valid = try await client.send(.\(method), \"\(url)\"\(json), token: \(token)\(headers))")
            out.line("#expect(\(statuses.sorted()).contains(valid.status.code), \"\\(String(buffer: valid.body))\")")
            let missing = required.map(\.name) + input.objects.filter(\.required).map(\.name)
            if !missing.isEmpty {
                let request = "client.send(.\(method), \"\(url)\", json: \"{}\", token: \(token)\(headers))"
                expectProblem("missing", 422, fields: missing.map(swiftString).joined(separator: ", "), from: request, into: &out)
            }
            if let emptied {
                let request = "client.send(.\(method), \"\(url)\"\(body(required, emptying: emptied)), token: \(token)\(headers))"
                let fields =
                    (emptied.fields.filter { !$0.optional && $0.defaultValue == nil }.map(\.name)
                    + emptied.objects.filter(\.required).map(\.name)).map { "\(emptied.name)[0].\($0)" }
                expectProblem("emptyElement", 422, fields: fields.map(swiftString).joined(separator: ", "), from: request, into: &out)
            }
            if let field = input.body.first(where: { Samples.invalidInput($0) != nil }), let bad = Samples.invalidInput(field) {
                let fields = input.body.filter { !$0.optional && $0.defaultValue == nil || $0 == field }
                let request =
                    "client.send(.\(method), \"\(url)\"\(body(fields, replacing: field, with: bad.json)), token: \(token)\(headers))"
                expectProblem("invalid", 422, fields: swiftString(bad.errorField), from: request, into: &out)
            } else if let field = input.query.first(where: { $0.type.isEnumeration || $0.type == .int }) {
                let bad = field.type.isEnumeration ? "not_a_value" : "not-a-number"
                let separator = query.isEmpty ? "?" : "&"
                let request = "client.send(.\(method), \"\(url)\(separator)\(field.name)=\(bad)\"\(json), token: \(token)\(headers))"
                expectProblem("invalid", 422, fields: swiftString(field.name), from: request, into: &out)
            }
            let missingHeaders = input.headers.filter { !$0.optional && $0.defaultValue == nil }
            if !missingHeaders.isEmpty {
                let request = "client.send(.\(method), \"\(url)\"\(json), token: \(token))"
                let fields = missingHeaders.map { swiftString($0.name) }.joined(separator: ", ")
                expectProblem("withoutHeaders", 422, fields: fields, from: request, into: &out)
            }
            if let upload = input.upload {
                // Refused before the logic or the body is read: not multipart, or announced too large.
                out.line("try await client.send(.\(method), \"\(url)\", json: \"{}\", token: \(token)).expectProblem(415)")
                let oversize = "String(repeating: \"a\", count: \(upload.max + 64 * 1024 + 1))"
                out.line("try await client.send(.\(method), \"\(url)\", json: \(oversize), token: \(token)\(headers)).expectProblem(413)")
                if !upload.precheck {
                    let request = "client.send(.\(method), \"\(url)\", json: \"--sgb--\\r\\n\", token: \(token)\(headers))"
                    expectProblem("withoutFile", 422, fields: swiftString(upload.field), from: request, into: &out)
                }
            }
            if let max = input.rawBodyMax {
                // Refused by its Content-Length, before it is read.
                let oversize = "json: String(repeating: \"a\", count: \(max + 1))"
                out.line("try await client.send(.\(method), \"\(url)\", \(oversize), token: \(token)\(headers)).expectProblem(413)")
            }
        }
    }

    /// A valid query value of `field`, as it goes in a URL.
    private func queryValue(_ field: FieldSpec) -> String {
        switch field.type {
        case .uuid: return "00000000-0000-4000-8000-000000000777"
        case .int, .bigint: return "\(Samples.integer(field, preferring: 1))"
        case .bool: return Samples.bool(field)
        case .timestamp: return Samples.rfc3339(field)
        case .enumeration(let values): return Samples.enumValue(field, values)
        default: return String(repeating: "a", count: Samples.length(field))
        }
    }

    /// `, json: <a multipart body with a three-byte file in field>` (sent as multipart).
    static func multipart(_ field: String) -> String {
        let body = "--sgb\\r\\nContent-Disposition: form-data; name=\\\"\(field)\\\"; filename=\\\"a\\\"\\r\\n\\r\\nabc\\r\\n--sgb--\\r\\n"
        return ", json: \"\(body)\""
    }
}
