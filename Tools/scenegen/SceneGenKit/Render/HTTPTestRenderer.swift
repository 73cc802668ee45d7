/// HTTP tests of every route of a scene, on the whole app over a fresh PostgreSQL database.
struct HTTPTestRenderer {
    let names: SceneNames
    /// Every spec, to insert the rows a reference needs.
    let specs: [SceneSpec]

    var hasCustomerRoutes: Bool { names.owned || names.spec.useCases.contains { $0.auth == .customer } }

    func render() -> String {
        var out = "import Foundation\nimport HummingbirdTesting\nimport Postgres\nimport TestSupport\nimport Testing\n\n"
        out += "@Suite(\"\(names.scene) over HTTP (generated)\")\n"
        out += "struct \(names.scene)HTTPTests {\n"
        var helpers: [String: String] = [:]
        insertHelper(for: names.spec, into: &helpers)
        out += helpers.keys.sorted().map { helpers[$0]! }.joined(separator: "\n")
        if let create = names.useCases(.create).first { out += createTests(create) }
        if let list = names.useCases(.list).first { out += listTest(list) }
        if let get = names.useCases(.get).first { out += getTest(get) }
        if let update = names.useCases(.update).first { out += updateTest(update) }
        if let delete = names.useCases(.delete).first { out += deleteTest(delete) }
        for custom in names.useCases(.custom) { out += customTest(custom) }
        out += wiringTest()
        let tests = out.components(separatedBy: "\n    @Test").map(resolvingSignIn)
        return tests.joined(separator: "\n    @Test") + "}\n"
    }

    private func token(_ useCase: UseCaseSpec) -> String {
        switch useCase.auth {
        case .public: return "nil"
        case .customer: return "token"
        case .admin: return "adminToken"
        }
    }

    /// The route's path with `{id}` as the Swift expression `id` interpolated (or the literal
    /// segment `literal`) and any other parameter as `x`.
    private func path(_ useCase: UseCaseSpec, id: String, literal: String? = nil) -> String {
        useCase.route.segments.map { segment in
            segment == "{id}" ? literal ?? "\\(\(id))" : segment.hasPrefix("{") ? "x" : segment
        }.reduce("") { $0 + "/" + $1 }
    }

    static let signInMarker = "<sign-in>"

    /// Replaces the marker with the sign-in a test's body needs: the customer's id, its token,
    /// both, or nothing.
    private func resolvingSignIn(_ test: String) -> String {
        let needsID = test.contains("customerID")
        let needsToken = test.contains("token: token")
        let line: String
        switch (needsID, needsToken) {
        case (true, true): line = "            let (customerID, token) = try await signedInCustomer(db)\n"
        case (true, false): line = "            let (customerID, _) = try await signedInCustomer(db)\n"
        case (false, true): line = "            let (_, token) = try await signedInCustomer(db)\n"
        case (false, false): line = test.contains("db.") || test.contains("(db") ? "" : "            _ = db\n"
        }
        return test.replacingOccurrences(of: Self.signInMarker, with: line)
    }

    private var ownerArgument: String { names.owned ? ", customerID: customerID" : "" }

    private func helperName(_ spec: SceneSpec) -> String { "insert\(spec.entity.name)" }

    /// `static func insertX(_ db:, customerID:) -> UUID` for `spec` and every table it references.
    private func insertHelper(for spec: SceneSpec, into helpers: inout [String: String]) {
        guard helpers[spec.entity.table] == nil else { return }
        helpers[spec.entity.table] = ""
        var columns = ["id"]
        var binds = ["id"]
        var lines: [String] = ["let id = UUID()"]
        if spec.entity.owner != nil {
            columns.append("customer_id")
            binds.append("customerID")
        }
        for field in spec.entity.fields where !field.primary && !field.optional && field.defaultValue == nil {
            let swiftField = SwiftField(field: field, entity: spec.entity.name)
            columns += swiftField.columns
            if let table = field.references {
                if table == "customers" {
                    binds.append("customerID")
                } else if let referenced = specs.first(where: { $0.entity.table == table }) {
                    insertHelper(for: referenced, into: &helpers)
                    let variable = Names.camelCase(field.name)
                    lines.append("let \(variable) = try await \(helperName(referenced))(db, customerID: customerID)")
                    binds.append(variable)
                } else {
                    binds.append("UUID()")
                }
            } else {
                binds += Samples.bind(field)
            }
        }
        let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
        lines.append("try await db.pool.query(")
        lines.append("    \"INSERT INTO \(spec.entity.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))\",")
        lines.append("    " + binds.joined(separator: ", "))
        lines.append(")")
        lines.append("return id")
        var out = "    /// Inserts a row of `\(spec.entity.table)` with sample values, straight into the database.\n"
        out += "    static func \(helperName(spec))(_ db: TestDatabase, customerID: UUID) async throws -> UUID {\n"
        out += lines.map { "        " + $0 + "\n" }.joined() + "    }\n"
        helpers[spec.entity.table] = out
    }

    /// Statements creating the rows the required references of a create body point at; returns
    /// each field's reference variable.
    private func referenceSetup() -> (lines: String, variable: (SwiftField) -> String) {
        var lines = ""
        for field in names.writable where field.requiredOnCreate {
            guard let table = field.field.references, table != "customers",
                let referenced = specs.first(where: { $0.entity.table == table })
            else { continue }
            lines += "            let \(field.bareProperty) = try await Self.\(helperName(referenced))(db, customerID: customerID)\n"
        }
        return (lines, { field in field.field.references == "customers" ? "customerID" : field.bareProperty })
    }

    private func createBody(_ variable: (SwiftField) -> String, replacing replaced: SwiftField? = nil, with value: String? = nil) -> String
    {
        var members: [String] = []
        for field in names.writable where field.requiredOnCreate || field.name == replaced?.name {
            let json = field.name == replaced?.name ? value! : Samples.json(field, reference: variable(field))
            members.append("\"\(field.name)\": \(json)")
        }
        return "#\"{" + members.joined(separator: ", ") + "}\"#"
    }

    private func createTests(_ create: UseCaseSpec) -> String {
        let (setup, variable) = referenceSetup()
        var out = "\n    @Test func \(Names.camelCase(create.name))Answers201WithTheRecord() async throws {\n"
        out += "        try await withApp { client, db in\n"
        out += Self.signInMarker + setup
        out +=
            "            let response = try await client.send(.\(create.route.method.lowercased()), \"\(create.route.path)\", json: \(createBody(variable)), token: \(token(create)))\n"
        out += "            #expect(response.status == .created, \"\\(String(buffer: response.body))\")\n"
        out += "            let body = try response.json\n"
        out += "            let id = try #require(body[\"id\"] as? String)\n"
        if names.owned { out += "            #expect(body[\"customer_id\"] as? String == customerID.uuidString.lowercased())\n" }
        for field in names.fields where !field.field.primary {
            let member = "body[\(swiftString(field.name))]"
            let check: String?
            if field.requiredOnCreate {
                check = Samples.check(field, member: member, reference: variable(field))
            } else if field.field.defaultValue != nil {
                check = Samples.defaultCheck(field, member: member)
            } else if field.field.optional {
                check = "\(member) is NSNull"
            } else {
                check = nil
            }
            if let check { out += "            #expect(\(check))\n" }
        }
        if let get = names.useCases(.get).first {
            let prefix = get.route.path.replacingOccurrences(of: "/{id}", with: "")
            out += "            #expect(response.headers[.location] == \"\(prefix)/\\(id)\")\n"
            out += "            let read = try await client.send(.get, \"\(prefix)/\\(id)\", token: \(token(get)))\n"
            out += "            #expect(read.status == .ok)\n"
            out += "            #expect(try read.json[\"id\"] as? String == id)\n"
        }
        out += "        }\n    }\n"

        out += "\n    @Test func \(Names.camelCase(create.name))RefusesBadInputWithFieldErrors() async throws {\n"
        out += "        try await withApp { client, db in\n"
        out += Self.signInMarker + setup
        let send = "client.send(.\(create.route.method.lowercased()), \"\(create.route.path)\", json: "
        var checks = 0
        if let required = names.writable.first(where: \.requiredOnCreate) {
            let members = names.writable.filter { $0.requiredOnCreate && $0.name != required.name }
                .map { "\"\($0.name)\": \(Samples.json($0, reference: variable($0)))" }
            out += "            let missing = try await \(send)#\"{\(members.joined(separator: ", "))}\"#, token: \(token(create)))\n"
            out += "            try missing.expectProblem(422)\n"
            out += "            #expect(missing.fieldNames == [\(swiftString(required.name))])\n"
            checks += 1
        }
        if let (field, bad) = names.writable.lazy.compactMap({ field in Samples.invalid(field).map { (field, $0) } }).first {
            out +=
                "            let invalid = try await \(send)\(createBody(variable, replacing: field, with: bad.json)), token: \(token(create)))\n"
            out += "            try invalid.expectProblem(422)\n"
            out += "            #expect(invalid.fieldNames == [\(swiftString(bad.errorField))])\n"
            checks += 1
        }
        if let reference = names.writable.first(where: { $0.field.references != nil && $0.field.references != "customers" }) {
            let body = createBody(variable, replacing: reference, with: "\"00000000-0000-4000-8000-00000000dead\"")
            out += "            let dangling = try await \(send)\(body), token: \(token(create)))\n"
            out += "            try dangling.expectProblem(422)\n"
            out += "            #expect(dangling.fieldNames == [\(swiftString(reference.name))])\n"
            checks += 1
        }
        out += "            try await \(send)\"[1]\", token: \(token(create))).expectProblem(422)\n"
        out += "            try await \(send)\"{\", token: \(token(create))).expectProblem(400)\n"
        return out + "        }\n    }\n"
    }

    private func listTest(_ list: UseCaseSpec) -> String {
        var out = "\n    @Test func \(Names.camelCase(list.name))PagesNewestFirst() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let older = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        out += "            let newer = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        out += "            let first = try await client.send(.get, \"\(list.route.path)?limit=1\", token: \(token(list))).json\n"
        out +=
            "            #expect((first[\"data\"] as? [[String: Any]])?.map { $0[\"id\"] as? String } == [newer.uuidString.lowercased()])\n"
        out += "            let cursor = try #require(first[\"next_cursor\"] as? String)\n"
        out +=
            "            let second = try await client.send(.get, \"\(list.route.path)?limit=1&cursor=\\(cursor)\", token: \(token(list))).json\n"
        out +=
            "            #expect((second[\"data\"] as? [[String: Any]])?.map { $0[\"id\"] as? String } == [older.uuidString.lowercased()])\n"
        out += "            #expect(second[\"next_cursor\"] is NSNull)\n"
        out += "            try await client.send(.get, \"\(list.route.path)?limit=0\", token: \(token(list))).expectProblem(422)\n"
        out += "            try await client.send(.get, \"\(list.route.path)?cursor=nonsense\", token: \(token(list))).expectProblem(400)\n"
        if names.owned {
            out += "            let (_, other) = try await signedInCustomer(db)\n"
            out += "            let foreign = try await client.send(.get, \"\(list.route.path)\", token: other).json\n"
            out += "            #expect((foreign[\"data\"] as? [Any])?.isEmpty == true)\n"
        }
        return out + "        }\n    }\n"
    }

    private func getTest(_ get: UseCaseSpec) -> String {
        var out =
            "\n    @Test func \(Names.camelCase(get.name))Answers404ForUnknown\(names.owned ? "AndForeign" : "")Records() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        out += "            let found = try await client.send(.get, \"\(path(get, id: "id"))\", token: \(token(get)))\n"
        out += "            #expect(found.status == .ok)\n"
        out += "            #expect(try found.json[\"id\"] as? String == id.uuidString.lowercased())\n"
        out += "            try await client.send(.get, \"\(path(get, id: "UUID()"))\", token: \(token(get))).expectProblem(404)\n"
        out +=
            "            try await client.send(.get, \"\(path(get, id: "", literal: "not-a-uuid"))\", token: \(token(get))).expectProblem(400)\n"
        if names.owned {
            out += "            let (_, other) = try await signedInCustomer(db)\n"
            out += "            try await client.send(.get, \"\(path(get, id: "id"))\", token: other).expectProblem(404)\n"
        }
        return out + "        }\n    }\n"
    }

    private func updateTest(_ update: UseCaseSpec) -> String {
        let method = update.route.method.lowercased()
        var out = "\n    @Test func \(Names.camelCase(update.name))ChangesOnlyTheFieldsSent() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        if let (field, other) = names.writable.lazy.compactMap({ field in Samples.other(field).map { (field, $0) } }).first {
            out += "            let before = try await client.send(.get, \"\(path(update, id: "id"))\", token: \(token(update)))\n"
            out +=
                "            let changed = try await client.send(.\(method), \"\(path(update, id: "id"))\", json: #\"{\"\(field.name)\": \(other.json)}\"#, token: \(token(update)))\n"
            out += "            #expect(changed.status == .ok, \"\\(String(buffer: changed.body))\")\n"
            out += "            let body = try changed.json\n"
            out += "            #expect(\(other.check("body[\(swiftString(field.name))]")))\n"
            if names.useCases(.get).first != nil {
                out += "            var unchanged = try before.json\n"
                out += "            unchanged[\(swiftString(field.name))] = nil\n"
                out +=
                    "            for (key, value) in unchanged { #expect(\"\\(body[key] ?? \"missing\")\" == \"\\(value)\", \"\\(key)\") }\n"
            }
        }
        out +=
            "            try await client.send(.\(method), \"\(path(update, id: "id"))\", json: \"{}\", token: \(token(update))).expectProblem(422)\n"
        if let field = names.writable.first(where: { Samples.invalid($0) != nil }), let bad = Samples.invalid(field) {
            out +=
                "            let invalid = try await client.send(.\(method), \"\(path(update, id: "id"))\", json: #\"{\"\(field.name)\": \(bad.json)}\"#, token: \(token(update)))\n"
            out += "            try invalid.expectProblem(422)\n"
            out += "            #expect(invalid.fieldNames == [\(swiftString(bad.errorField))])\n"
        }
        if let field = names.writable.first {
            let json = Samples.json(field, reference: "id")
            out +=
                "            try await client.send(.\(method), \"\(path(update, id: "UUID()"))\", json: #\"{\"\(field.name)\": \(json)}\"#, token: \(token(update))).expectProblem(404)\n"
            if names.owned {
                out += "            let (_, other) = try await signedInCustomer(db)\n"
                out +=
                    "            try await client.send(.\(method), \"\(path(update, id: "id"))\", json: #\"{\"\(field.name)\": \(json)}\"#, token: other).expectProblem(404)\n"
            }
        }
        return out + "        }\n    }\n"
    }

    private func deleteTest(_ delete: UseCaseSpec) -> String {
        var out = "\n    @Test func \(Names.camelCase(delete.name))Answers204ThenNotFound() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        if names.owned {
            out += "            let (_, other) = try await signedInCustomer(db)\n"
            out += "            try await client.send(.delete, \"\(path(delete, id: "id"))\", token: other).expectProblem(404)\n"
        }
        out += "            let deleted = try await client.send(.delete, \"\(path(delete, id: "id"))\", token: \(token(delete)))\n"
        out += "            #expect(deleted.status == .noContent)\n"
        out += "            try await client.send(.delete, \"\(path(delete, id: "id"))\", token: \(token(delete))).expectProblem(404)\n"
        out +=
            "            let left = try await db.pool.query(\"SELECT count(*)::int AS n FROM \(names.spec.entity.table) WHERE id = $1\", id)\n"
        out += "            #expect(try left.rows[0].decode(\"n\") as Int == 0)\n"
        return out + "        }\n    }\n"
    }

    /// Every route is registered (the router's own 404 never answers) and refuses a caller
    /// without the credentials its `auth` asks for.
    private func wiringTest() -> String {
        var out = "\n    @Test func everyRouteIsWiredAndGuarded() async throws {\n"
        out += "        try await withApp { client, db in\n"
        out += Self.signInMarker
        for useCase in names.spec.useCases {
            let method = useCase.route.method.lowercased()
            let route = path(useCase, id: "UUID()")
            let json = ["POST", "PUT", "PATCH"].contains(useCase.route.method) ? ", json: \"{}\"" : ""
            out += "            // \(useCase.route): \(useCase.name)\n"
            out +=
                "            let \(Names.camelCase(useCase.name)) = try await client.send(.\(method), \"\(route)\"\(json), token: \(token(useCase)))\n"
            out +=
                "            #expect(!((try? \(Names.camelCase(useCase.name)).json[\"detail\"] as? String)?.hasPrefix(\"No route\") ?? false))\n"
            if useCase.auth != .public {
                out += "            try await client.send(.\(method), \"\(route)\"\(json)).expectProblem(401)\n"
            }
        }
        return out + "        }\n    }\n"
    }
}
