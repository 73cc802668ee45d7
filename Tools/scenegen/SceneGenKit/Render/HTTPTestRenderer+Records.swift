/// The tests of the routes over stored records: list (with its filters), get, update, delete.
extension HTTPTestRenderer {
    func listTest(_ list: UseCaseSpec, into out: inout CodeWriter) {
        let (parentLines, parent) = parentSetup
        let listPath = path(list, parent: parent)
        let insert = "try await Self.\(helperName(names.spec))(db, customerID: customerID"
        let under = parent.map { ", under: \($0)" } ?? ""
        func ids(_ page: String) -> String { "(\(page)[\"data\"] as? [[String: Any]])?.map { $0[\"id\"] as? String }" }
        appTest("\(Names.camelCase(list.name))PagesNewestFirst", into: &out) { out in
            if parent != nil {
                // A row under another parent first: it must not show up in this parent's pages.
                out.line("_ = \(insert))")
                out.lines(parentLines)
            }
            out.line("let older = \(insert)\(under))")
            out.line("let newer = \(insert)\(under))")
            out.line("let first = try await client.send(.get, \"\(listPath)?limit=1\", token: \(token(list))).json")
            out.line("#expect(\(ids("first")) == [newer.lowercasedText])")
            out.line("let cursor = try #require(first[\"next_cursor\"] as? String)")
            out.line("let second = try await client.send(.get, \"\(listPath)?limit=1&cursor=\\(cursor)\", token: \(token(list))).json")
            out.line("#expect(\(ids("second")) == [older.lowercasedText])")
            out.line("#expect(second[\"next_cursor\"] is NSNull)")
            out.line("try await client.send(.get, \"\(listPath)?limit=0\", token: \(token(list))).expectProblem(422)")
            out.line("try await client.send(.get, \"\(listPath)?cursor=nonsense\", token: \(token(list))).expectProblem(400)")
            if parent != nil {
                out.line("try await client.send(.get, \"\(path(list, parent: "UUID()"))\", token: \(token(list))).expectProblem(404)")
            }
            for field in names.fields where list.filters.contains(field.name) {
                filterCheck(field, path: listPath, token: token(list), odd: "\(insert)\(under))", into: &out)
            }
            if names.actsForOwner(list) {
                out.line("let (_, other) = try await signedInCustomer(db)")
                if othersParentMaker != nil {
                    // Under a parent of the first customer's own: the other's list is not found.
                    out.line("try await client.send(.get, \"\(listPath)\", token: other).expectProblem(404)")
                } else {
                    out.line("let foreign = try await client.send(.get, \"\(listPath)\", token: other).json")
                    out.line("#expect((foreign[\"data\"] as? [Any])?.isEmpty == true)")
                }
            }
        }
    }

    /// Filtering by the value a listed row has finds that row, and every row answered has it; a
    /// value the field cannot hold is a 422 naming the field. The row filtered for is one inserted
    /// (by `odd`) with a value no other row has, where the field allows one, so a filter that let
    /// every row through fails the test.
    private func filterCheck(_ field: SwiftField, path: String, token: String, odd: String, into out: inout CodeWriter) {
        let member = "row[\(swiftString(field.name))]"
        let value: String
        switch field.field.type {
        case .bool: value = "sameJSON(\(member), true) ? \"true\" : sameJSON(\(member), false) ? \"false\" : nil"
        // In parentheses: a trailing closure in an `if let` reads like the statement's body.
        case .int, .bigint: value = "(\(member) as? NSNumber).map({ \"\\($0.int64Value)\" })"
        default: value = "(\(member) as? String)?.addingPercentEncoding(withAllowedCharacters: .alphanumerics)"
        }
        let v = field.bareProperty
        let found = [
            "let filtered = try await client.send(.get, \"\(path)?\(field.name)=\\(\(v))\", token: \(token)).json",
            "let rows = try #require(filtered[\"data\"] as? [[String: Any]])",
            "#expect(rows.contains { $0[\"id\"] as? String == row[\"id\"] as? String })",
            "#expect(rows.allSatisfy { sameJSON($0[\(swiftString(field.name))], \(member)) })",
        ]
        // Values the field cannot hold, the column's bounds included for an int.
        var bad = field.field.type == .string ? [] : ["not-a-value"]
        if field.field.type == .int { bad.append("\(Int64(Int32.max) + 1)") }
        out.line("// Filtered by `\(field.name)`.")
        out.block("do") { out in
            if let value = oddValue(field) {
                out.line("let odd = \(odd)")
                out.line(
                    "try await db.pool.query(\"UPDATE \(names.spec.record.table) SET \(field.columns[0]) = $1 WHERE id = $2\", \(value), odd)"
                )
                out.line("let all = try await client.send(.get, \"\(path)\", token: \(token)).json")
                out.line(
                    "let row = try #require((all[\"data\"] as? [[String: Any]])?.first { $0[\"id\"] as? String == odd.lowercasedText })")
            } else {
                out.line("let all = try await client.send(.get, \"\(path)\", token: \(token)).json")
                out.line("let row = try #require((all[\"data\"] as? [[String: Any]])?.first)")
            }
            if field.field.optional {
                out.block("if let \(v) = \(value)") { $0.lines(found) }
            } else {
                out.block("do") { $0.lines(["let \(v) = try #require(\(value))"] + found) }
            }
            for (index, value) in bad.enumerated() {
                let request = "client.send(.get, \"\(path)?\(field.name)=\(value)\", token: \(token))"
                expectProblem("bad\(index)", 422, fields: swiftString(field.name), from: request, into: &out)
            }
        }
    }

    /// A value of `field` unlike the one the insert helper gives every row (its sample, its
    /// default or nothing), as a bind; `nil` where rows differ anyway (a unique field) or none
    /// can (a reference, an enum of one value).
    private func oddValue(_ field: SwiftField) -> String? {
        let f = field.field
        guard !f.unique, !names.spec.record.uniqueTogether.contains(where: { $0.contains(f.name) }), f.references == nil else {
            return nil
        }
        let required = !f.optional && f.defaultValue == nil
        switch f.type {
        case .enumeration(let values):
            let given: String? =
                if case .string(let value) = f.defaultValue { value } else { required ? Samples.enumValue(f, values) : nil }
            return values.first { $0 != given }.map(swiftString)
        case .bool:
            let given: String? = if case .bool(let value) = f.defaultValue { "\(value)" } else { required ? Samples.bool(f) : nil }
            return given == "true" ? "false" : "true"
        case .int, .bigint:
            let given: Int64? =
                if case .int(let value) = f.defaultValue { value } else { required ? Samples.integer(f, preferring: 1) : nil }
            let odd = Samples.number(f, preferring: (given ?? 0) + 1)
            guard odd != given else { return nil }
            return "\(f.type == .int ? "Int" : "Int64")(\(odd))"
        case .string, .text:
            let given: String? = if case .string(let value) = f.defaultValue { value } else { required ? (f.example ?? "a") : nil }
            let character = given?.first == "b" ? "c" : "b"
            return Samples.text(character, Samples.length(f))
        case .uuid, .money, .timestamp, .number:
            return nil
        }
    }

    func getTest(_ get: UseCaseSpec, into out: inout CodeWriter) {
        let parent = names.parent?.bareProperty
        appTest("\(Names.camelCase(get.name))Answers404ForUnknown\(names.actsForOwner(get) ? "AndForeign" : "")Records", into: &out) {
            out in
            out.line("let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)")
            if let parent { out.line("let \(parent) = try await Self.parentOf(db, id)") }
            out.line("let found = try await client.send(.get, \"\(path(get, id: "id", parent: parent))\", token: \(token(get)))")
            out.line("#expect(found.status == .ok)")
            out.line("#expect(try found.json[\"id\"] as? String == id.lowercasedText)")
            out.line("try await client.send(.get, \"\(path(get, id: "UUID()", parent: parent))\", token: \(token(get))).expectProblem(404)")
            if parent != nil {
                out.line(
                    "try await client.send(.get, \"\(path(get, id: "id", parent: "UUID()"))\", token: \(token(get))).expectProblem(404)")
            }
            out.line(
                "try await client.send(.get, \"\(path(get, id: "", literal: "not-a-uuid", parent: parent))\", token: \(token(get))).expectProblem(400)"
            )
            if names.actsForOwner(get) {
                out.line("let (_, other) = try await signedInCustomer(db)")
                out.line("try await client.send(.get, \"\(path(get, id: "id", parent: parent))\", token: other).expectProblem(404)")
            }
        }
    }

    func updateTest(_ update: UseCaseSpec, into out: inout CodeWriter) {
        let method = update.route.method.lowercased()
        let parent = names.parent?.bareProperty
        let send = "client.send(.\(method), \"\(path(update, id: "id", parent: parent))\", json: "
        appTest("\(Names.camelCase(update.name))ChangesOnlyTheFieldsSent", into: &out) { out in
            out.line("let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)")
            if let parent { out.line("let \(parent) = try await Self.parentOf(db, id)") }
            if let (field, other) = names.writable(by: update).lazy.compactMap({ field in Samples.other(field).map { (field, $0) } }).first
            {
                // Read through the get route (which may differ from the update's: an admin variant).
                if let get = names.useCases(.get).first {
                    out.line("let before = try await client.send(.get, \"\(path(get, id: "id", parent: parent))\", token: \(token(get)))")
                }
                out.line("let changed = try await \(send)#\"{\"\(field.name)\": \(other.json)}\"#, token: \(token(update)))")
                out.line("#expect(changed.status == .ok, \"\\(String(buffer: changed.body))\")")
                out.line("let body = try changed.json")
                out.line("#expect(\(other.check("body[\(swiftString(field.name))]")))")
                if names.useCases(.get).first != nil {
                    out.line("var unchanged = try before.json")
                    out.line("unchanged[\(swiftString(field.name))] = nil")
                    out.line("for (key, value) in unchanged { #expect(body[key] != nil && sameJSON(body[key], value), \"\\(key)\") }")
                }
            }
            out.line("try await \(send)\"{}\", token: \(token(update))).expectProblem(422)")
            // JSON merge patch: null cannot remove a field that always has a value.
            if let field = names.writable(by: update).first(where: { !$0.field.optional }) {
                let request = "\(send)#\"{\"\(field.name)\": null}\"#, token: \(token(update)))"
                expectProblem("null", 422, fields: swiftString(field.name), from: request, into: &out)
            }
            if let field = names.writable(by: update).first(where: { Samples.invalid($0) != nil }), let bad = Samples.invalid(field) {
                let request = "\(send)#\"{\"\(field.name)\": \(bad.json)}\"#, token: \(token(update)))"
                expectProblem("invalid", 422, fields: swiftString(bad.errorField), from: request, into: &out)
            }
            if let reference = names.ownedReferences.first(where: { names.writable(by: update).map(\.name).contains($0.name) }),
                let maker = rowMaker(reference.field.references!)
            {
                // Another customer's row is refused as a missing one is; the customer's own is taken.
                out.line("let othersRow = try await \(maker)(db, customerID: try await signedInCustomer(db).id)")
                let request = "\(send)#\"{\"\(reference.name)\": \"\\#(othersRow)\"}\"#, token: \(token(update)))"
                expectProblem("foreign", 422, fields: swiftString(reference.name), from: request, into: &out)
                out.line("let ownRow = try await \(maker)(db, customerID: customerID)")
                out.line("let owned = try await \(send)#\"{\"\(reference.name)\": \"\\#(ownRow)\"}\"#, token: \(token(update)))")
                out.line("#expect(try owned.json[\(swiftString(reference.name))] as? String == ownRow.lowercasedText)")
                if update.auth == .customer {
                    // Sent to another customer's row, it says nothing of that row: 404, as for none.
                    out.line("let theirs = try await Self.\(helperName(names.spec))(db, customerID: try await signedInCustomer(db).id)")
                    let theirParent = parent.map { _ in "try await Self.parentOf(db, theirs)" }
                    if let theirParent { out.line("let theirParent = \(theirParent)") }
                    let theirPath = path(update, id: "theirs", parent: theirParent == nil ? nil : "theirParent")
                    out.line(
                        "try await client.send(.\(method), \"\(theirPath)\", json: #\"{\"\(reference.name)\": \"\\#(ownRow)\"}\"#, token: \(token(update))).expectProblem(404)"
                    )
                }
            }
            if let field = names.writable(by: update).first {
                let json = Samples.json(field, reference: "id")
                out.line(
                    "try await client.send(.\(method), \"\(path(update, id: "UUID()", parent: parent))\", json: #\"{\"\(field.name)\": \(json)}\"#, token: \(token(update))).expectProblem(404)"
                )
                if parent != nil {
                    // The row under a parent it is not under.
                    out.line(
                        "try await client.send(.\(method), \"\(path(update, id: "id", parent: "UUID()"))\", json: #\"{\"\(field.name)\": \(json)}\"#, token: \(token(update))).expectProblem(404)"
                    )
                }
                if names.actsForOwner(update) {
                    out.line("let (_, other) = try await signedInCustomer(db)")
                    out.line("try await \(send)#\"{\"\(field.name)\": \(json)}\"#, token: other).expectProblem(404)")
                }
            }
        }
    }

    /// JSON merge patch: null removes a field that may be absent (one set first, by reference to
    /// nothing else), and the other fields stay as they were.
    func removalTest(_ update: UseCaseSpec, into out: inout CodeWriter) {
        guard
            let field = names.removableFields.first(where: { $0.field.references == nil && (update.auth == .admin || !$0.field.adminOnly) })
        else { return }
        let method = update.route.method.lowercased()
        let parent = names.parent?.bareProperty
        let send = "client.send(.\(method), \"\(path(update, id: "id", parent: parent))\", json: "
        let key = swiftString(field.name)
        appTest("\(Names.camelCase(update.name))RemovesAFieldSentAsNull", into: &out) { out in
            out.line("let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)")
            if let parent { out.line("let \(parent) = try await Self.parentOf(db, id)") }
            out.line(
                "let set = try await \(send)#\"{\"\(field.name)\": \(Samples.json(field, reference: "id"))}\"#, token: \(token(update)))")
            out.line("#expect(set.status == .ok, \"\\(String(buffer: set.body))\")")
            out.line("var before = try set.json")
            out.line("#expect(!(before[\(key)] is NSNull))")
            out.line("let removed = try await \(send)#\"{\"\(field.name)\": null}\"#, token: \(token(update)))")
            out.line("#expect(removed.status == .ok, \"\\(String(buffer: removed.body))\")")
            out.line("let body = try removed.json")
            out.line("#expect(body[\(key)] is NSNull)")
            out.line("before[\(key)] = nil")
            out.line("for (key, value) in before { #expect(body[key] != nil && sameJSON(body[key], value), \"\\(key)\") }")
        }
    }

    func deleteTest(_ delete: UseCaseSpec, into out: inout CodeWriter) {
        let parent = names.parent?.bareProperty
        let route = "client.send(.delete, \"\(path(delete, id: "id", parent: parent))\""
        appTest("\(Names.camelCase(delete.name))Answers204ThenNotFound", into: &out) { out in
            out.line("let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)")
            if let parent { out.line("let \(parent) = try await Self.parentOf(db, id)") }
            if names.actsForOwner(delete) {
                out.line("let (_, other) = try await signedInCustomer(db)")
                out.line("try await \(route), token: other).expectProblem(404)")
            }
            if parent != nil {
                out.line(
                    "try await client.send(.delete, \"\(path(delete, id: "id", parent: "UUID()"))\", token: \(token(delete))).expectProblem(404)"
                )
            }
            out.line("let deleted = try await \(route), token: \(token(delete)))")
            out.line("#expect(deleted.status == .noContent)")
            out.line("try await \(route), token: \(token(delete))).expectProblem(404)")
            out.line("let left = try await db.pool.query(\"SELECT count(*)::int AS n FROM \(names.spec.record.table) WHERE id = $1\", id)")
            out.line("#expect(try left.rows[0].decode(\"n\") as Int == 0)")
        }
    }

    /// PUT of the create body over a stored row: the row keeps its id, every field is the body's
    /// (an optional one left out is cleared); bad input 422, another customer's row 404.
    func replaceTest(_ replace: UseCaseSpec, into out: inout CodeWriter) {
        let (references, variable) = referenceSetup()
        let parent = names.parent?.bareProperty
        let send = "client.send(.put, \"\(path(replace, id: "id", parent: parent))\", json: "
        // Set first, straight in the database: an optional field the body leaves out (cleared), and
        // a field no client writes (kept).
        let cleared = names.writable.lazy.filter { $0.field.optional && !$0.sentInSamples }.compactMap { field in
            oddValue(field).map { (field, $0) }
        }.first
        let kept = names.fields.lazy.filter { $0.field.readonly && $0.field.defaultValue != .now }.compactMap { field in
            oddValue(field).map { (field, $0) }
        }.first
        appTest("\(Names.camelCase(replace.name))WritesTheWholeRecord", into: &out) { out in
            out.line("let id = try await Self.\(helperName(names.spec))(db, customerID: customerID)")
            if let parent { out.line("let \(parent) = try await Self.parentOf(db, id)") }
            for (field, value) in [cleared, kept].compactMap({ $0 }) {
                out.line(
                    "try await db.pool.query(\"UPDATE \(names.spec.record.table) SET \(field.columns[0]) = $1 WHERE id = $2\", \(value), id)"
                )
            }
            out.lines(references)
            out.line("let replaced = try await \(send)\(createBody(variable)), token: \(token(replace)))")
            out.line("#expect(replaced.status == .ok, \"\\(String(buffer: replaced.body))\")")
            out.line("let body = try replaced.json")
            out.line("#expect(body[\"id\"] as? String == id.lowercasedText)")
            for field in names.writable where !field.field.onePerOwner {
                let member = "body[\(swiftString(field.name))]"
                let check =
                    field.sentInSamples
                    ? Samples.check(field, member: member, reference: variable(field))
                    : field.field.defaultValue != nil ? Samples.defaultCheck(field, member: member) : "\(member) is NSNull"
                if let check { out.line("#expect(\(check))") }
            }
            if let (field, value) = kept {
                out.line("#expect(sameJSON(body[\(swiftString(field.name))], \(value)), \"no client writes it: kept\")")
            }
            if let required = names.writable.first(where: \.requiredOnCreate) {
                let members = names.writable.filter { $0.sentInSamples && $0.name != required.name }
                    .map { "\"\($0.name)\": \(Samples.json($0, reference: variable($0)))" }
                let request = "\(send)#\"{\(members.joined(separator: ", "))}\"#, token: \(token(replace)))"
                expectProblem("missing", 422, fields: swiftString(required.name), from: request, into: &out)
            }
            if let (field, bad) = names.writable.lazy.compactMap({ field in Samples.invalid(field).map { (field, $0) } }).first {
                let request = "\(send)\(createBody(variable, replacing: field, with: bad.json)), token: \(token(replace)))"
                expectProblem("invalid", 422, fields: swiftString(bad.errorField), from: request, into: &out)
            }
            let elsewhere = "client.send(.put, \"\(path(replace, id: "UUID()", parent: parent))\", json: "
            out.line("try await \(elsewhere)\(createBody(variable)), token: \(token(replace))).expectProblem(404)")
            if parent != nil {
                let otherParent = "client.send(.put, \"\(path(replace, id: "id", parent: "UUID()"))\", json: "
                out.line("try await \(otherParent)\(createBody(variable)), token: \(token(replace))).expectProblem(404)")
            }
            if names.actsForOwner(replace) {
                out.line("let (_, other) = try await signedInCustomer(db)")
                out.line("try await \(send)\(createBody(variable)), token: other).expectProblem(404)")
            }
        }
    }

    /// JSON of a value of `field` unlike the one the samples send, for a second row that must not
    /// be a duplicate of the first; `nil` where none is known.
    func otherJSON(_ field: SwiftField) -> String? {
        if let other = Samples.other(field) { return other.json }
        let f = field.field
        // An example is the one value known to pass the entity's rules across fields.
        guard f.example == nil || !names.spec.record.rules else { return nil }
        switch f.type {
        case .string, .text:
            let sample = f.example ?? "a"
            let count = Samples.length(f)
            guard count <= 20 else { return nil }
            return "\"" + String(repeating: sample.first == "b" ? "c" : "b", count: count) + "\""
        case .enumeration(let values):
            return values.first { $0 != Samples.enumValue(f, values) }.map { "\"\($0)\"" }
        default:
            return nil
        }
    }

    /// The rules across a customer's rows, on the real database: one row holds the
    /// `one_per_owner` flag, and `max_per_owner` rows are all one may keep.
    func ownerRuleTests(_ create: UseCaseSpec, into out: inout CodeWriter) {
        let (references, variable) = referenceSetup()
        let table = names.spec.record.table
        let send = "client.send(.post, \"\(path(create, parent: nil))\", json: "
        // The second row differs from the first where the same body twice would be a duplicate.
        let duplicate = duplicatedByTheSameBody
        let distinct = duplicate.flatMap { name in names.writable.first { $0.name == name }.flatMap(otherJSON) }
        if let flag = names.onePerOwner, names.parent == nil, duplicate == nil || distinct != nil {
            var second = [flag.name: "true"]
            if let duplicate, let distinct { second[duplicate] = distinct }
            let flagged = createBody(variable, replacing: second)
            appTest("\(flag.bareProperty)IsHeldByOneRowOfTheCustomer", into: &out) { out in
                out.lines(references)
                out.line("let first = try await \(send)\(createBody(variable)), token: token)")
                out.line("#expect(try first.json[\(swiftString(flag.name))] as? Bool == true)")
                out.line("let second = try await \(send)\(flagged), token: token)")
                out.line("let secondID = try #require(try second.json[\"id\"] as? String)")
                out.line(
                    "let held = try await db.pool.query(\"SELECT id FROM \(table) WHERE customer_id = $1 AND \(flag.name)\", customerID).rows"
                )
                out.line("#expect(try held.map { try $0.decode(\"id\") as UUID } == [UUID(uuidString: secondID)!])")
                out.line("// Another customer's first row holds its own.")
                out.line("let (_, other) = try await signedInCustomer(db)")
                out.line(
                    "#expect(try await \(send)\(createBody(variable)), token: other).json[\(swiftString(flag.name))] as? Bool == true)")
            }
        }
        // The store counts before it inserts: one too many is refused as that, a duplicate or not.
        if let limit = names.spec.record.maxPerOwner, limit <= 1000 {
            // A nested row's limit is the customer's: the rows before are each under a parent of
            // their own (the helper makes one), the last two under another.
            let (parentLines, parent) = parentSetup
            let send = "client.send(.post, \"\(path(create, parent: parent))\", json: "
            appTest("aCustomerKeeps\(limit)\(Names.upperCamelCase(table))AtMost", into: &out) { out in
                out.lines(parentLines + references)
                out.line("for _ in 1..<\(limit) { _ = try await Self.\(helperName(names.spec))(db, customerID: customerID) }")
                out.line("let last = try await \(send)\(createBody(variable)), token: token)")
                out.line("#expect(last.status == .created, \"\\(String(buffer: last.body))\")")
                out.line("let past = try await \(send)\(createBody(variable)), token: token)")
                out.line("try past.expectProblem(409)")
                out.line("#expect(try past.json[\"type\"] as? String == \"/problems/limit-reached\")")
            }
        }
    }
}
