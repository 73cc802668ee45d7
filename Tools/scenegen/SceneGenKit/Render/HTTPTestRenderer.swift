/// HTTP tests of every route of a scene, on the whole app over a fresh PostgreSQL database.
struct HTTPTestRenderer {
    let names: SceneNames
    /// Every spec, to insert the rows a reference needs.
    let specs: [SceneSpec]

    var hasCustomerRoutes: Bool { names.owned || names.spec.useCases.contains { $0.auth == .customer } }

    func render() -> String {
        var out =
            "import Foundation\nimport HTTPTestSupport\nimport HummingbirdTesting\nimport Postgres\nimport TestSupport\nimport Testing\n\n"
        out += "@Suite(\"\(names.scene) over HTTP (generated)\")\n"
        out += "struct \(names.scene)GeneratedHTTPTests {\n"
        var helpers: [String: String] = [:]
        if names.spec.entity != nil { insertHelper(for: names.spec, into: &helpers) }
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
    /// segment `literal`), the parent's parameter as the expression `parent`, and any other
    /// parameter as `x`.
    private func path(_ useCase: UseCaseSpec, id: String = "", literal: String? = nil, parent: String? = nil) -> String {
        useCase.route.segments.map { segment in
            if segment == "{id}" { return literal ?? "\\(\(id))" }
            if let parent, segment == "{\(names.parent?.name ?? "")}" { return "\\(\(parent))" }
            return segment.hasPrefix("{") ? "x" : segment
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

    private func helperName(_ spec: SceneSpec) -> String { "insert\(spec.record.name)" }

    /// `static func insertX(_ db:, customerID:) -> UUID` for `spec` and every table it references.
    private func insertHelper(for spec: SceneSpec, into helpers: inout [String: String]) {
        guard helpers[spec.record.table] == nil else { return }
        helpers[spec.record.table] = ""
        var columns = ["id"]
        var binds = ["id"]
        var lines: [String] = ["let id = UUID()"]
        if spec.record.owner != nil {
            columns.append("customer_id")
            binds.append("customerID")
        }
        let parent = spec == names.spec ? names.parent : nil
        for field in spec.record.fields where !field.primary && !field.optional && field.defaultValue == nil {
            let swiftField = SwiftField(field: field, entity: spec.record.name)
            columns += swiftField.columns
            if let table = field.references {
                if table == "customers" {
                    binds.append("customerID")
                } else if let referenced = specs.first(where: { $0.entity?.table == table }) {
                    insertHelper(for: referenced, into: &helpers)
                    let variable = Names.camelCase(field.name)
                    let insert = "try await \(helperName(referenced))(db, customerID: customerID)"
                    if field.name == parent?.name {
                        lines.append("let \(variable): UUID")
                        lines.append("if let parentRow { \(variable) = parentRow } else { \(variable) = \(insert) }")
                    } else {
                        lines.append("let \(variable) = \(insert)")
                    }
                    binds.append(variable)
                } else {
                    binds.append("UUID()")
                }
            } else {
                binds += Samples.bind(field, distinct: spec.record.uniqueTogether.contains { $0.contains(field.name) })
            }
        }
        let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
        lines.append("try await db.pool.query(")
        lines.append("    \"INSERT INTO \(spec.record.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))\",")
        lines.append("    " + binds.joined(separator: ", "))
        lines.append(")")
        lines.append("return id")
        var out = "    /// Inserts a row of `\(spec.record.table)` with sample values, straight into the database"
        out += parent == nil ? ".\n" : ",\n    /// under `parentRow` or a new parent row.\n"
        let under = parent == nil ? "" : ", under parentRow: UUID? = nil"
        out += "    static func \(helperName(spec))(_ db: TestDatabase, customerID: UUID\(under)) async throws -> UUID {\n"
        out += lines.map { "        " + $0 + "\n" }.joined() + "    }\n"
        if let parent {
            out += "\n    /// The parent (`\(parent.name)`) of a row of `\(spec.record.table)`.\n"
            out += "    static func parentOf(_ db: TestDatabase, _ id: UUID) async throws -> UUID {\n"
            out +=
                "        try await db.pool.query(\"SELECT \(parent.name) FROM \(spec.record.table) WHERE id = $1\", id).rows[0].decode(\(swiftString(parent.name)))\n"
            out += "    }\n"
        }
        helpers[spec.record.table] = out
    }

    /// Statements creating the rows the required references of a create body point at; returns
    /// each field's reference variable.
    private func referenceSetup() -> (lines: String, variable: (SwiftField) -> String) {
        var lines = ""
        for field in names.writable where field.requiredOnCreate {
            guard let table = field.field.references, table != "customers",
                let referenced = specs.first(where: { $0.entity?.table == table })
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

    /// The field a duplicate is reported on when the create body is sent twice, if a unique
    /// field or group is made only of what that body fixes: its required fields, the owner and
    /// the parent.
    private var duplicatedByTheSameBody: String? {
        let fixed = Set(names.writable.filter(\.requiredOnCreate).map(\.name) + names.scope.map(\.column))
        if let single = names.writable.first(where: { $0.requiredOnCreate && $0.field.unique }) { return single.name }
        let group = names.spec.record.uniqueTogether.first { $0.allSatisfy(fixed.contains) }
        return group.flatMap { group in group.last { $0 != "customer_id" } ?? group.last }
    }

    /// The statement making the parent row a test's paths go under, and its variable.
    private var parentSetup: (line: String, variable: String?) {
        guard let parent = names.parent, let table = parent.field.references,
            let referenced = specs.first(where: { $0.entity?.table == table })
        else { return ("", nil) }
        return (
            "            let \(parent.bareProperty) = try await Self.\(helperName(referenced))(db, customerID: customerID)\n",
            parent.bareProperty
        )
    }

    private func createTests(_ create: UseCaseSpec) -> String {
        var (setup, variable) = referenceSetup()
        let (parentLine, parent) = parentSetup
        setup = parentLine + setup
        let createPath = path(create, parent: parent)
        var out = "\n    @Test func \(Names.camelCase(create.name))Answers201WithTheRecord() async throws {\n"
        out += "        try await withApp { client, db in\n"
        out += Self.signInMarker + setup
        out +=
            "            let response = try await client.send(.\(create.route.method.lowercased()), \"\(createPath)\", json: \(createBody(variable)), token: \(token(create)))\n"
        out += "            #expect(response.status == .created, \"\\(String(buffer: response.body))\")\n"
        out += "            let body = try response.json\n"
        out += "            let id = try #require(body[\"id\"] as? String)\n"
        if names.owned { out += "            #expect(body[\"customer_id\"] as? String == customerID.uuidString.lowercased())\n" }
        if let parent {
            out += "            #expect(body[\(swiftString(names.parent!.name))] as? String == \(parent).uuidString.lowercased())\n"
        }
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
            let location = path(get, id: "id", parent: parent.map { "\($0).uuidString.lowercased()" })
            out += "            #expect(response.headers[.location] == \"\(location)\")\n"
            out += "            let read = try await client.send(.get, \"\(location)\", token: \(token(get)))\n"
            out += "            #expect(read.status == .ok)\n"
            out += "            #expect(try read.json[\"id\"] as? String == id)\n"
        }
        if let field = duplicatedByTheSameBody {
            out += "            // The same body again breaks a uniqueness: 409 naming the field.\n"
            out +=
                "            let again = try await client.send(.\(create.route.method.lowercased()), \"\(createPath)\", json: \(createBody(variable)), token: \(token(create)))\n"
            out += "            try again.expectProblem(409)\n"
            out += "            #expect(again.fieldNames == [\(swiftString(field))])\n"
        }
        out += "        }\n    }\n"

        out += "\n    @Test func \(Names.camelCase(create.name))RefusesBadInputWithFieldErrors() async throws {\n"
        out += "        try await withApp { client, db in\n"
        out += Self.signInMarker + setup
        let send = "client.send(.\(create.route.method.lowercased()), \"\(createPath)\", json: "
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
        if parent != nil {
            let elsewhere = "client.send(.\(create.route.method.lowercased()), \"\(path(create, parent: "UUID()"))\", json: "
            out += "            try await \(elsewhere)\(createBody(variable)), token: \(token(create))).expectProblem(404)\n"
        }
        out += "            try await \(send)\"[1]\", token: \(token(create))).expectProblem(422)\n"
        out += "            try await \(send)\"{\", token: \(token(create))).expectProblem(400)\n"
        return out + "        }\n    }\n"
    }

    private func listTest(_ list: UseCaseSpec) -> String {
        var out = "\n    @Test func \(Names.camelCase(list.name))PagesNewestFirst() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        let (parentLine, parent) = parentSetup
        let listPath = path(list, parent: parent)
        var under = ""
        if let parent {
            // A row under another parent first: it must not show up in this parent's pages.
            out += "            _ = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
            out += parentLine
            under = ", under: \(parent)"
        }
        out += "            let older = try await Self.\(helperName(names.spec))(db, customerID: customerID\(under))\n"
        out += "            let newer = try await Self.\(helperName(names.spec))(db, customerID: customerID\(under))\n"
        out += "            let first = try await client.send(.get, \"\(listPath)?limit=1\", token: \(token(list))).json\n"
        out +=
            "            #expect((first[\"data\"] as? [[String: Any]])?.map { $0[\"id\"] as? String } == [newer.uuidString.lowercased()])\n"
        out += "            let cursor = try #require(first[\"next_cursor\"] as? String)\n"
        out +=
            "            let second = try await client.send(.get, \"\(listPath)?limit=1&cursor=\\(cursor)\", token: \(token(list))).json\n"
        out +=
            "            #expect((second[\"data\"] as? [[String: Any]])?.map { $0[\"id\"] as? String } == [older.uuidString.lowercased()])\n"
        out += "            #expect(second[\"next_cursor\"] is NSNull)\n"
        out += "            try await client.send(.get, \"\(listPath)?limit=0\", token: \(token(list))).expectProblem(422)\n"
        out += "            try await client.send(.get, \"\(listPath)?cursor=nonsense\", token: \(token(list))).expectProblem(400)\n"
        if parent != nil {
            out +=
                "            try await client.send(.get, \"\(path(list, parent: "UUID()"))\", token: \(token(list))).expectProblem(404)\n"
        }
        for field in names.fields where list.filters.contains(field.name) {
            out += filterCheck(field, path: listPath, token: token(list))
        }
        if names.actsForOwner(list) {
            out += "            let (_, other) = try await signedInCustomer(db)\n"
            out += "            let foreign = try await client.send(.get, \"\(listPath)\", token: other).json\n"
            out += "            #expect((foreign[\"data\"] as? [Any])?.isEmpty == true)\n"
        }
        return out + "        }\n    }\n"
    }

    /// Filtering by the value a listed row has finds that row, and every row answered has it; a
    /// value the field cannot hold is a 422 naming the field.
    private func filterCheck(_ field: SwiftField, path: String, token: String) -> String {
        let member = "row[\(swiftString(field.name))]"
        let value: String
        switch field.field.type {
        case .bool: value = "sameJSON(\(member), true) ? \"true\" : sameJSON(\(member), false) ? \"false\" : nil"
        // In parentheses: a trailing closure in an `if let` reads like the statement's body.
        case .int, .bigint: value = "(\(member) as? NSNumber).map({ \"\\($0.int64Value)\" })"
        default: value = "(\(member) as? String)?.addingPercentEncoding(withAllowedCharacters: .alphanumerics)"
        }
        let v = field.bareProperty
        var out = "            // Filtered by `\(field.name)`.\n"
        out += "            do {\n"
        out += "                let all = try await client.send(.get, \"\(path)\", token: \(token)).json\n"
        out += "                let row = try #require((all[\"data\"] as? [[String: Any]])?.first)\n"
        out +=
            field.field.optional
            ? "                if let \(v) = \(value) {\n" : "                do {\n                    let \(v) = try #require(\(value))\n"
        out += "                    let filtered = try await client.send(.get, \"\(path)?\(field.name)=\\(\(v))\", token: \(token)).json\n"
        out += "                    let rows = try #require(filtered[\"data\"] as? [[String: Any]])\n"
        out += "                    #expect(rows.contains { $0[\"id\"] as? String == row[\"id\"] as? String })\n"
        out += "                    #expect(rows.allSatisfy { sameJSON($0[\(swiftString(field.name))], \(member)) })\n"
        out += "                }\n"
        // Values the field cannot hold, the column's bounds included for an int.
        var bad = field.field.type == .string ? [] : ["not-a-value"]
        if field.field.type == .int { bad.append("\(Int64(Int32.max) + 1)") }
        for (index, value) in bad.enumerated() {
            out += "                let bad\(index) = try await client.send(.get, \"\(path)?\(field.name)=\(value)\", token: \(token))\n"
            out += "                try bad\(index).expectProblem(422)\n"
            out += "                #expect(bad\(index).fieldNames == [\(swiftString(field.name))])\n"
        }
        return out + "            }\n"
    }

    private func getTest(_ get: UseCaseSpec) -> String {
        var out =
            "\n    @Test func \(Names.camelCase(get.name))Answers404ForUnknown\(names.actsForOwner(get) ? "AndForeign" : "")Records() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        if let parent = names.parent { out += "            let \(parent.bareProperty) = try await Self.parentOf(db, id)\n" }
        out +=
            "            let found = try await client.send(.get, \"\(path(get, id: "id", parent: names.parent?.bareProperty))\", token: \(token(get)))\n"
        out += "            #expect(found.status == .ok)\n"
        out += "            #expect(try found.json[\"id\"] as? String == id.uuidString.lowercased())\n"
        out +=
            "            try await client.send(.get, \"\(path(get, id: "UUID()", parent: names.parent?.bareProperty))\", token: \(token(get))).expectProblem(404)\n"
        if names.parent != nil {
            out +=
                "            try await client.send(.get, \"\(path(get, id: "id", parent: "UUID()"))\", token: \(token(get))).expectProblem(404)\n"
        }
        out +=
            "            try await client.send(.get, \"\(path(get, id: "", literal: "not-a-uuid", parent: names.parent?.bareProperty))\", token: \(token(get))).expectProblem(400)\n"
        if names.actsForOwner(get) {
            out += "            let (_, other) = try await signedInCustomer(db)\n"
            out +=
                "            try await client.send(.get, \"\(path(get, id: "id", parent: names.parent?.bareProperty))\", token: other).expectProblem(404)\n"
        }
        return out + "        }\n    }\n"
    }

    private func updateTest(_ update: UseCaseSpec) -> String {
        let method = update.route.method.lowercased()
        var out = "\n    @Test func \(Names.camelCase(update.name))ChangesOnlyTheFieldsSent() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        if let parent = names.parent { out += "            let \(parent.bareProperty) = try await Self.parentOf(db, id)\n" }
        if let (field, other) = names.writable.lazy.compactMap({ field in Samples.other(field).map { (field, $0) } }).first {
            // Read through the get route (which may differ from the update's: an admin variant).
            if let get = names.useCases(.get).first {
                out +=
                    "            let before = try await client.send(.get, \"\(path(get, id: "id", parent: names.parent?.bareProperty))\", token: \(token(get)))\n"
            }
            out +=
                "            let changed = try await client.send(.\(method), \"\(path(update, id: "id", parent: names.parent?.bareProperty))\", json: #\"{\"\(field.name)\": \(other.json)}\"#, token: \(token(update)))\n"
            out += "            #expect(changed.status == .ok, \"\\(String(buffer: changed.body))\")\n"
            out += "            let body = try changed.json\n"
            out += "            #expect(\(other.check("body[\(swiftString(field.name))]")))\n"
            if names.useCases(.get).first != nil {
                out += "            var unchanged = try before.json\n"
                out += "            unchanged[\(swiftString(field.name))] = nil\n"
                out +=
                    "            for (key, value) in unchanged { #expect(body[key] != nil && sameJSON(body[key], value), \"\\(key)\") }\n"
            }
        }
        out +=
            "            try await client.send(.\(method), \"\(path(update, id: "id", parent: names.parent?.bareProperty))\", json: \"{}\", token: \(token(update))).expectProblem(422)\n"
        if let field = names.writable.first(where: { Samples.invalid($0) != nil }), let bad = Samples.invalid(field) {
            out +=
                "            let invalid = try await client.send(.\(method), \"\(path(update, id: "id", parent: names.parent?.bareProperty))\", json: #\"{\"\(field.name)\": \(bad.json)}\"#, token: \(token(update)))\n"
            out += "            try invalid.expectProblem(422)\n"
            out += "            #expect(invalid.fieldNames == [\(swiftString(bad.errorField))])\n"
        }
        if let field = names.writable.first {
            let json = Samples.json(field, reference: "id")
            out +=
                "            try await client.send(.\(method), \"\(path(update, id: "UUID()", parent: names.parent?.bareProperty))\", json: #\"{\"\(field.name)\": \(json)}\"#, token: \(token(update))).expectProblem(404)\n"
            if names.actsForOwner(update) {
                out += "            let (_, other) = try await signedInCustomer(db)\n"
                out +=
                    "            try await client.send(.\(method), \"\(path(update, id: "id", parent: names.parent?.bareProperty))\", json: #\"{\"\(field.name)\": \(json)}\"#, token: other).expectProblem(404)\n"
            }
        }
        return out + "        }\n    }\n"
    }

    private func deleteTest(_ delete: UseCaseSpec) -> String {
        var out = "\n    @Test func \(Names.camelCase(delete.name))Answers204ThenNotFound() async throws {\n"
        out += "        try await withApp { client, db in\n" + Self.signInMarker
        out += "            let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)\n"
        if let parent = names.parent { out += "            let \(parent.bareProperty) = try await Self.parentOf(db, id)\n" }
        if names.actsForOwner(delete) {
            out += "            let (_, other) = try await signedInCustomer(db)\n"
            out +=
                "            try await client.send(.delete, \"\(path(delete, id: "id", parent: names.parent?.bareProperty))\", token: other).expectProblem(404)\n"
        }
        if names.parent != nil {
            out +=
                "            try await client.send(.delete, \"\(path(delete, id: "id", parent: "UUID()"))\", token: \(token(delete))).expectProblem(404)\n"
        }
        out +=
            "            let deleted = try await client.send(.delete, \"\(path(delete, id: "id", parent: names.parent?.bareProperty))\", token: \(token(delete)))\n"
        out += "            #expect(deleted.status == .noContent)\n"
        out +=
            "            try await client.send(.delete, \"\(path(delete, id: "id", parent: names.parent?.bareProperty))\", token: \(token(delete))).expectProblem(404)\n"
        out +=
            "            let left = try await db.pool.query(\"SELECT count(*)::int AS n FROM \(names.spec.record.table) WHERE id = $1\", id)\n"
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
