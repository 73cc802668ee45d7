/// HTTP tests of every route of a scene, on the whole app over a fresh PostgreSQL database.
struct HTTPTestRenderer {
    let names: SceneNames
    /// Every spec, to insert the rows a reference needs.
    let specs: [SceneSpec]
    /// Whether custom use cases' logic is generated as a stub that answers 501 (the matrix). The
    /// product's is the user's: its 501 fails the generated tests until the logic is written.
    let logicIsStubbed: Bool

    func render() -> String {
        var out = CodeWriter()
        out.lines([
            "import Foundation", "import HTTPTestSupport", "import HummingbirdTesting", "import Postgres", "import TestSupport",
            "import Testing", "",
        ])
        out.line("@Suite(\"\(names.scene) over HTTP (generated)\")")
        out.block("struct \(names.scene)GeneratedHTTPTests") { out in
            var helpers: [String: String] = [:]
            if names.spec.entity != nil { insertHelper(for: names.spec, into: &helpers) }
            // The other customer's rows the owned references are tested with.
            for field in names.ownedReferences {
                if let referenced = specs.first(where: { $0.entity?.table == field.field.references }) {
                    insertHelper(for: referenced, into: &helpers)
                }
            }
            for (index, table) in helpers.keys.sorted().enumerated() {
                if index > 0 { out.blank() }
                out.append(helpers[table]!)
            }
            if let create = names.useCases(.create).first { createTests(create, into: &out) }
            for list in names.useCases(.list) { listTest(list, into: &out) }
            for get in names.useCases(.get) { getTest(get, into: &out) }
            for update in names.useCases(.update) {
                updateTest(update, into: &out)
                removalTest(update, into: &out)
            }
            for replace in names.useCases(.replace) { replaceTest(replace, into: &out) }
            if let create = names.useCases(.create).first { ownerRuleTests(create, into: &out) }
            for delete in names.useCases(.delete) { deleteTest(delete, into: &out) }
            for custom in names.useCases(.custom) { customTest(custom, into: &out) }
            wiringTest(into: &out)
        }
        return out.text
    }

    /// `@Test func name()`: the statements `body` writes, run on the whole app over a fresh
    /// database after the sign-in they need: the customer's id, its token, both, or nothing.
    func appTest(_ name: String, into out: inout CodeWriter, _ body: (inout CodeWriter) -> Void) {
        var statements = CodeWriter(depth: out.depth + 2)
        body(&statements)
        let text = statements.text
        let signIn: String?
        switch (text.contains("customerID"), text.contains("token: token")) {
        case (true, true): signIn = "let (customerID, token) = try await signedInCustomer(db)"
        case (true, false): signIn = "let (customerID, _) = try await signedInCustomer(db)"
        case (false, true): signIn = "let (_, token) = try await signedInCustomer(db)"
        case (false, false): signIn = text.contains("db.") || text.contains("(db") ? nil : "_ = db"
        }
        out.blank()
        out.block("@Test func \(name)() async throws") { out in
            out.line("try await withApp { client, db in")
            out.indented { out in
                if let signIn { out.line(signIn) }
                out.append(text)
            }
            out.line("}")
        }
    }

    /// `let variable = try await request` answering a problem of `status` that names `fields`
    /// (Swift string literals).
    func expectProblem(_ variable: String, _ status: Int, fields: String, from request: String, into out: inout CodeWriter) {
        out.line("let \(variable) = try await \(request)")
        out.line("try \(variable).expectProblem(\(status))")
        out.line("#expect(\(variable).fieldNames == [\(fields)])")
    }

    func token(_ useCase: UseCaseSpec) -> String {
        switch useCase.auth {
        case .public: return "nil"
        case .customer: return "token"
        case .admin: return "adminToken"
        }
    }

    /// The route's path with `{id}` as the Swift expression `id` interpolated (or the literal
    /// segment `literal`), the parent's parameter as the expression `parent`, and any other
    /// parameter as `x`.
    func path(_ useCase: UseCaseSpec, id: String = "", literal: String? = nil, parent: String? = nil) -> String {
        useCase.route.segments.map { segment in
            if segment == "{id}" { return literal ?? "\\(\(id))" }
            if let parent, segment == "{\(names.parent?.name ?? "")}" { return "\\(\(parent))" }
            return segment.hasPrefix("{") ? "x" : segment
        }.reduce("") { $0 + "/" + $1 }
    }

    func helperName(_ spec: SceneSpec) -> String { "insert\(spec.record.name)" }

    /// An enum or a bool: too few values for a counter to keep rows apart.
    static func fewValued(_ field: FieldSpec) -> Bool {
        if case .enumeration = field.type { return true }
        return field.type == .bool
    }

    /// What makes a row of `table` in a test: the test support's for a hand-kept table
    /// (`KnownTables`), else the insert helper of the spec whose entity keeps it.
    func rowMaker(_ table: String) -> String? {
        if let maker = KnownTables.rowMakers[table] { return maker }
        return specs.first { $0.entity?.table == table }.map { "Self.\(helperName($0))" }
    }

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
        // Unique groups whose only varying members are enums or bools (besides the owner and the
        // rows referred to), a field's own `unique: true` included: their few values are drawn at
        // random, and the insert retried while it collides. Other groups vary by their text or
        // numbers.
        let uniqueGroups = spec.record.uniqueTogether + spec.record.fields.filter(\.unique).map { [$0.name] }
        let drawnGroups = uniqueGroups.filter { group in
            let members = spec.record.fields.filter { group.contains($0.name) && $0.references == nil && $0.name != "customer_id" }
            return !members.isEmpty && members.allSatisfy(Self.fewValued)
        }
        for field in spec.record.fields where !field.primary && !field.optional && field.defaultValue == nil {
            let swiftField = SwiftField(field: field, entity: spec.record.name)
            columns += swiftField.columns
            if let table = field.references {
                if table == "customers" {
                    binds.append("customerID")
                } else if let maker = rowMaker(table) {
                    if let referenced = specs.first(where: { $0.entity?.table == table }) { insertHelper(for: referenced, into: &helpers) }
                    let variable = Names.camelCase(field.name)
                    let insert = "try await \(maker)(db, customerID: customerID)"
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
                let inGroups = uniqueGroups.filter { $0.contains(field.name) }
                binds += Samples.bind(
                    field, distinct: inGroups.contains { drawnGroups.contains($0) || !Self.fewValued(field) })
            }
        }
        let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
        var out = CodeWriter(depth: 1)
        out.doc(
            "Inserts a row of `\(spec.record.table)` with sample values, straight into the database"
                + (parent == nil ? "." : ",\nunder `parentRow` or a new parent row."))
        let under = parent == nil ? "" : ", under parentRow: UUID? = nil"
        let drawn = !drawnGroups.isEmpty
        out.block("static func \(helperName(spec))(_ db: TestDatabase, customerID: UUID\(under)) async throws -> UUID") { out in
            out.lines(lines)
            func insert(_ out: inout CodeWriter) {
                out.line("try await db.pool.query(")
                out.indented { out in
                    out.line("\"INSERT INTO \(spec.record.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))\",")
                    out.line(binds.joined(separator: ", "))
                }
                out.line(")")
            }
            if drawn {
                out.block("try await retryingUniqueViolations") { out in insert(&out) }
            } else {
                insert(&out)
            }
            out.line("return id")
        }
        if let parent {
            out.blank()
            out.doc("The parent (`\(parent.name)`) of a row of `\(spec.record.table)`.")
            out.block("static func parentOf(_ db: TestDatabase, _ id: UUID) async throws -> UUID") {
                $0.line(
                    "try await db.pool.query(\"SELECT \(parent.name) FROM \(spec.record.table) WHERE id = $1\", id).rows[0].decode(\(swiftString(parent.name)))"
                )
            }
        }
        helpers[spec.record.table] = out.text
    }

    /// Statements creating the rows the required references of a create body point at; returns
    /// each field's reference variable.
    func referenceSetup() -> (lines: [String], variable: (SwiftField) -> String) {
        var lines: [String] = []
        for field in names.writable where field.requiredOnCreate {
            guard let table = field.field.references, table != "customers", let maker = rowMaker(table) else { continue }
            lines.append("let \(field.bareProperty) = try await \(maker)(db, customerID: customerID)")
        }
        return (lines, { field in field.field.references == "customers" ? "customerID" : field.bareProperty })
    }

    func createBody(_ variable: (SwiftField) -> String, replacing replaced: SwiftField? = nil, with value: String? = nil) -> String {
        createBody(variable, replacing: replaced.map { [$0.name: value!] } ?? [:])
    }

    /// The create body with the JSON of some fields (by name) in place of their samples.
    func createBody(_ variable: (SwiftField) -> String, replacing values: [String: String]) -> String {
        var members: [String] = []
        for field in names.writable where field.sentInSamples || values[field.name] != nil {
            let json = values[field.name] ?? Samples.json(field, reference: variable(field))
            members.append("\"\(field.name)\": \(json)")
        }
        return "#\"{" + members.joined(separator: ", ") + "}\"#"
    }

    /// The field a duplicate is reported on when the create body is sent twice, if a unique
    /// field or group is made only of what the same body makes the same: every field but a
    /// timestamp of the moment and a flag only the owner's first row holds, with the owner and
    /// the parent (an absent value counts as one value: `NULLS NOT DISTINCT`).
    var duplicatedByTheSameBody: String? {
        let varying = names.fields.filter { $0.field.primary || $0.field.defaultValue == .now || $0.field.onePerOwner }
        let fixed = Set(names.fields.map(\.name)).subtracting(varying.map(\.name)).union(names.scope.map(\.column))
        // A unique field alone is a plain UNIQUE: two rows without it do not clash.
        let present = names.writable.filter { $0.sentInSamples || $0.field.defaultValue != nil }
        if let single = present.first(where: { fixed.contains($0.name) && $0.field.unique }) { return single.name }
        let group = names.spec.record.uniqueTogether.first { $0.allSatisfy(fixed.contains) }
        return group.map(EntitySpec.constraintField(of:))
    }

    /// The helper making a parent row for another customer, when customers own both the rows and
    /// their parents.
    var othersParentMaker: String? {
        guard names.owned, names.parentOwned, let table = names.parent?.field.references else { return nil }
        return rowMaker(table)
    }

    /// The statement making the parent row a test's paths go under, and its variable.
    var parentSetup: (lines: [String], variable: String?) {
        guard let parent = names.parent, let table = parent.field.references, let maker = rowMaker(table) else { return ([], nil) }
        return (["let \(parent.bareProperty) = try await \(maker)(db, customerID: customerID)"], parent.bareProperty)
    }

    private func createTests(_ create: UseCaseSpec, into out: inout CodeWriter) {
        let (references, variable) = referenceSetup()
        let (parentLines, parent) = parentSetup
        let setup = parentLines + references
        let createPath = path(create, parent: parent)
        let send = "client.send(.\(create.route.method.lowercased()), \"\(createPath)\", json: "
        appTest("\(Names.camelCase(create.name))Answers201WithTheRecord", into: &out) { out in
            out.lines(setup)
            out.line("let response = try await \(send)\(createBody(variable)), token: \(token(create)))")
            out.line("#expect(response.status == .created, \"\\(String(buffer: response.body))\")")
            out.line("let body = try response.json")
            // The id is read back only where a get route can show the record again.
            let gets = !names.useCases(.get).isEmpty
            out.line(gets ? "let id = try #require(body[\"id\"] as? String)" : "#expect(body[\"id\"] is String)")
            if names.owned { out.line("#expect(body[\"customer_id\"] as? String == customerID.lowercasedText)") }
            if let parent { out.line("#expect(body[\(swiftString(names.parent!.name))] as? String == \(parent).lowercasedText)") }
            for field in names.fields where !field.field.primary {
                let member = "body[\(swiftString(field.name))]"
                let check: String?
                if field.field.onePerOwner {
                    // The customer's first row holds the flag, whatever the body said.
                    check = "\(member) as? Bool == true"
                } else if field.sentInSamples {
                    check = Samples.check(field, member: member, reference: variable(field))
                } else if field.field.defaultValue != nil {
                    check = Samples.defaultCheck(field, member: member)
                } else if field.field.optional {
                    check = "\(member) is NSNull"
                } else {
                    check = nil
                }
                if let check { out.line("#expect(\(check))") }
            }
            if let get = names.useCases(.get).first {
                let location = path(get, id: "id", parent: parent.map { "\($0).lowercasedText" })
                out.line("#expect(response.headers[.location] == \"\(location)\")")
                out.line("let read = try await client.send(.get, \"\(location)\", token: \(token(get)))")
                out.line("#expect(read.status == .ok)")
                out.line("#expect(try read.json[\"id\"] as? String == id)")
            }
            if let field = duplicatedByTheSameBody {
                out.line("// The same body again breaks a uniqueness: 409 naming the field.")
                expectProblem(
                    "again", 409, fields: swiftString(field), from: "\(send)\(createBody(variable)), token: \(token(create)))", into: &out)
                let group = names.spec.record.uniqueTogether.first { $0.last { $0 != "customer_id" } == field }?.filter {
                    $0 != "customer_id"
                }
                if let group, group.count > 1 {
                    // A pair is named as a pair.
                    let detail = "Another record already has this \(group.joined(separator: " and "))."
                    out.line("#expect(try again.json[\"detail\"] as? String == \(swiftString(detail)))")
                }
            }
        }
        appTest("\(Names.camelCase(create.name))RefusesBadInputWithFieldErrors", into: &out) { out in
            out.lines(setup)
            if let required = names.writable.first(where: \.requiredOnCreate) {
                let members = names.writable.filter { $0.sentInSamples && $0.name != required.name }
                    .map { "\"\($0.name)\": \(Samples.json($0, reference: variable($0)))" }
                let request = "\(send)#\"{\(members.joined(separator: ", "))}\"#, token: \(token(create)))"
                expectProblem("missing", 422, fields: swiftString(required.name), from: request, into: &out)
            }
            if let (field, bad) = names.writable.lazy.compactMap({ field in Samples.invalid(field).map { (field, $0) } }).first {
                let request = "\(send)\(createBody(variable, replacing: field, with: bad.json)), token: \(token(create)))"
                expectProblem("invalid", 422, fields: swiftString(bad.errorField), from: request, into: &out)
            }
            if let reference = names.writable.first(where: { $0.field.references != nil && $0.field.references != "customers" }) {
                let body = createBody(variable, replacing: reference, with: "\"00000000-0000-4000-8000-00000000dead\"")
                expectProblem(
                    "dangling", 422, fields: swiftString(reference.name), from: "\(send)\(body), token: \(token(create)))", into: &out)
            }
            let creatable = Set(names.writable(by: create).map(\.name))
            if let reference = names.ownedReferences.first(where: { creatable.contains($0.name) }),
                let maker = rowMaker(reference.field.references!)
            {
                // Another customer's row is refused as a missing one is; the customer's own is taken.
                out.line("let othersRow = try await \(maker)(db, customerID: try await signedInCustomer(db).id)")
                let body = createBody(variable, replacing: reference, with: "\"\\#(othersRow)\"")
                expectProblem(
                    "foreign", 422, fields: swiftString(reference.name), from: "\(send)\(body), token: \(token(create)))", into: &out)
                out.line("let ownRow = try await \(maker)(db, customerID: customerID)")
                let own = createBody(variable, replacing: reference, with: "\"\\#(ownRow)\"")
                out.line("let owned = try await \(send)\(own), token: \(token(create)))")
                out.line("#expect(owned.status == .created, \"\\(String(buffer: owned.body))\")")
                out.line("#expect(try owned.json[\(swiftString(reference.name))] as? String == ownRow.lowercasedText)")
            }
            if parent != nil {
                let elsewhere = "client.send(.\(create.route.method.lowercased()), \"\(path(create, parent: "UUID()"))\", json: "
                out.line("try await \(elsewhere)\(createBody(variable)), token: \(token(create))).expectProblem(404)")
            }
            if let maker = othersParentMaker {
                // Another customer's parent is not found, as an unknown one is: nothing goes under it.
                out.line("let othersParent = try await \(maker)(db, customerID: try await signedInCustomer(db).id)")
                let theirs = "client.send(.\(create.route.method.lowercased()), \"\(path(create, parent: "othersParent"))\", json: "
                out.line("try await \(theirs)\(createBody(variable)), token: \(token(create))).expectProblem(404)")
                for list in names.useCases(.list) where list.auth == .customer {
                    out.line("try await client.send(.get, \"\(path(list, parent: "othersParent"))\", token: token).expectProblem(404)")
                }
            }
            out.line("try await \(send)\"[1]\", token: \(token(create))).expectProblem(422)")
            out.line("try await \(send)\"{\", token: \(token(create))).expectProblem(400)")
        }
    }

    /// Every route is registered (the router's own 404 never answers) and refuses a caller
    /// without the credentials its `auth` asks for.
    private func wiringTest(into out: inout CodeWriter) {
        appTest("everyRouteIsWiredAndGuarded", into: &out) { out in
            for useCase in names.spec.useCases {
                let method = useCase.route.method.lowercased()
                let route = path(useCase, id: "UUID()")
                let json = ["POST", "PUT", "PATCH"].contains(useCase.route.method) ? ", json: \"{}\"" : ""
                let answer = Names.camelCase(useCase.name)
                out.line("// \(useCase.route): \(useCase.name)")
                out.line("let \(answer) = try await client.send(.\(method), \"\(route)\"\(json), token: \(token(useCase)))")
                out.line("#expect(!((try? \(answer).json[\"detail\"] as? String)?.hasPrefix(\"No route\") ?? false))")
                if useCase.auth != .public {
                    out.line("try await client.send(.\(method), \"\(route)\"\(json)).expectProblem(401)")
                }
            }
        }
    }
}
