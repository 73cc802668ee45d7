/// The store's writes: insert, update and replace. An entity that keeps a rule across each
/// customer's rows (`one_per_owner`, `max_per_owner`) writes in a transaction that first locks
/// the customer's row, so two requests of one customer take turns and the rule holds between
/// them; every other write is one statement.
extension GatewayRenderer {
    static func insert(_ names: SceneNames, into out: inout CodeWriter) {
        let e = names.entity
        let v = names.entityVariable
        let table = names.spec.record.table
        var binds: [String] = []
        var values: [String] = []
        for (index, field) in names.fields.enumerated() {
            for bind in field.binds("\(v).\(field.property)", optional: field.field.optional) {
                binds.append(bind)
                values.append("$\(binds.count)")
            }
            if index == 0 && names.owned {
                binds.append("\(v).customerID")
                values.append("$\(binds.count)")
            }
            if field.field.onePerOwner {
                // A row created while none of the owner's holds the flag gets it.
                values[values.count - 1] += " OR NOT EXISTS (SELECT 1 FROM \(table) WHERE customer_id = $2 AND \(field.name))"
            }
        }
        out.block("public func insert(_ \(v): \(e)) async throws -> \(e)") { out in
            out.block("try await translatingRecordErrors(table: \(swiftString(table))\(groups(names)))") { out in
                let executor = guardedWrite(names, owner: "\(v).customerID", into: &out) { out, executor in
                    if let limit = names.spec.record.maxPerOwner {
                        out.line(
                            "let kept = try await \(executor).query(\"SELECT count(*) AS kept FROM \(table) WHERE customer_id = $1\", \(v).customerID)"
                        )
                        out.block("guard try kept.rows[0].decode(\"kept\", as: Int64.self) < \(limit) else") {
                            $0.line(
                                "throw RecordError.limitReached(entity: \(swiftString(UseCaseRenderer.humanName(e))), limit: \(limit))")
                        }
                    }
                    if let flag = names.onePerOwner {
                        out.line(
                            "try await \(executor).query(\"UPDATE \(table) SET \(flag.name) = false WHERE customer_id = $1 AND \(flag.name) AND $2\", \(v).customerID, \(v).\(flag.property))"
                        )
                    }
                    ownedParentCheck(names, executor: executor, into: &out)
                    ownedReferenceChecks(names, executor: executor, value: { "\(v).\($0.property)" }, owner: "\(v).customerID", into: &out)
                    out.line("let rows = try await \(executor).query(")
                    out.indented { out in
                        out.line(
                            "\"INSERT INTO \(table) (\\(Self.columns)) VALUES (\(values.joined(separator: ", "))) RETURNING \\(Self.columns)\","
                        )
                        out.lines(wrap(binds))
                    }
                    out.line(").rows")
                    out.line("return try Self.record(from: rows[0])")
                }
                if executor != "database" { out.line("}") }
            }
        }
    }

    /// A customer's row goes only under a parent of their own when customers own the parents
    /// too (`SceneNames.parentOwned`): another customer's parent is not found, as an unknown one is.
    private static func ownedParentCheck(_ names: SceneNames, executor: String, into out: inout CodeWriter) {
        guard names.owned, names.parentOwned, let parent = names.parent, let label = names.parentLabel,
            let table = parent.field.references
        else { return }
        let v = names.entityVariable
        out.line("// Under the customer's own \(label) only: another's is not found.")
        out.block(
            "guard try await !\(executor).query(\"SELECT 1 FROM \(table) WHERE id = $1 AND customer_id = $2\", \(v).\(parent.property), \(v).customerID).rows.isEmpty else"
        ) {
            $0.line("throw RecordError.notFound(entity: \(swiftString(label)), id: \(v).\(parent.property))")
        }
    }

    /// Each reference to a row customers own names one of the owner's own (`ownedReferences`):
    /// another customer's row is refused as a missing one is, so the answer tells nothing of it.
    /// A new row's owner is `owner`; a changed row's is the one it has (the staff may change any
    /// customer's), and a row not found in the caller's scope is left to the write's own 404, so
    /// a reference sent to another customer's row id says nothing of that row.
    private static func ownedReferenceChecks(
        _ names: SceneNames, executor: String, value: (SwiftField) -> String, owner: String?, into out: inout CodeWriter
    ) {
        let table = names.spec.record.table
        // The write's scope (`customer_id`, the parent), its values from $3.
        let scope = names.scope.enumerated().map { " AND " + filter(names, $1, at: $0 + 3) }.joined()
        let scopeBinds = names.scope.map { ", \($0.label)" }.joined()
        for field in names.ownedReferences {
            let referenced = field.field.references!
            out.line("// Only a row of \(referenced) the owner owns.")
            let refused =
                owner.map {
                    "try await \(executor).query(\"SELECT 1 FROM \(referenced) WHERE id = $1 AND customer_id = $2\", reference, \($0)).rows.isEmpty"
                }
                ?? "try await !\(executor).query(\"SELECT 1 FROM \(table) r WHERE r.id = $2\(scope) AND NOT EXISTS (SELECT 1 FROM \(referenced) WHERE id = $1 AND customer_id = r.customer_id)\", reference, id\(scopeBinds)).rows.isEmpty"
            out.block("if let reference = \(value(field)) as UUID?, \(refused)") {
                $0.line("throw RecordError.missingReference(field: \(swiftString(field.name)))")
            }
        }
    }

    /// `update` (the fields a patch sets) or `replace` (every writable field of an entity).
    static func write(_ names: SceneNames, method: String, into out: inout CodeWriter) {
        let e = names.entity
        let v = names.entityVariable
        let table = names.spec.record.table
        let replaces = method == "replace"
        let scope = names.scope.enumerated().map { " AND " + filter(names, $1, at: $0 + 2) }.joined()
        var assignments: [String] = []
        var binds = ["id"] + names.scope.map(\.label)
        for field in names.writable {
            let values =
                replaces
                ? field.binds("\(v).\(field.property)", optional: field.field.optional)
                : field.binds("patch.\(field.property)", optional: true)
            // A field a patch may remove: one flag for all its columns.
            var removal: Int?
            if !replaces && field.field.optional {
                binds.append("patch.removing.contains(.\(field.property.replacingOccurrences(of: "`", with: "")))")
                removal = binds.count
            }
            for (column, value) in zip(field.columns, values) {
                binds.append(value)
                let kept = "COALESCE($\(binds.count), \(column))"
                assignments.append(
                    replaces
                        ? "\(column) = $\(binds.count)"
                        : "\(column) = " + (removal.map { "CASE WHEN $\($0) THEN NULL ELSE \(kept) END" } ?? kept))
            }
        }
        let parameter = replaces ? "with \(v): \(e)" : "with patch: \(names.patch)"
        out.block("public func \(method)(\(names.scopeParameter)id: UUID, \(parameter)) async throws -> \(e)?") { out in
            out.block("try await translatingRecordErrors(table: \(swiftString(table))\(groups(names)))") { out in
                let executor = guardedWrite(names, owner: "customerID", into: &out) { out, executor in
                    if let flag = names.onePerOwner {
                        // Set on this row, the flag leaves the owner's others (when this row is theirs).
                        let value = replaces ? "\(v).\(flag.property)" : "patch.\(flag.property) ?? false"
                        out.line("try await \(executor).query(")
                        out.indented { out in
                            out.line(
                                "\"UPDATE \(table) SET \(flag.name) = false WHERE customer_id = $2 AND \(flag.name) AND id <> $1 AND $3 AND EXISTS (SELECT 1 FROM \(table) WHERE id = $1 AND customer_id = $2)\","
                            )
                            out.line("id, customerID, \(value)")
                        }
                        out.line(")")
                    }
                    ownedReferenceChecks(
                        names, executor: executor, value: { (replaces ? "\(v)." : "patch.") + $0.property }, owner: nil, into: &out)
                    let alone = executor == "database" && names.ownedReferences.isEmpty
                    out.line("\(alone ? "" : "return ")try await \(executor).query(")
                    out.indented { out in
                        out.line("\"\"\"")
                        out.list("UPDATE \(table) SET", assignments, closer: "WHERE id = $1\(scope) RETURNING \\(Self.columns)")
                        out.line("\"\"\",")
                        out.lines(wrap(binds))
                    }
                    out.line(").rows.first.map(Self.record(from:))")
                }
                if executor != "database" { out.line("}") }
            }
        }
    }

    /// Opens the transaction under the owner's lock when the entity needs one (the caller
    /// closes its brace), then writes the statements through `body`. Returns the executor the
    /// statements ran on: `connection` in the transaction, else `database`.
    private static func guardedWrite(
        _ names: SceneNames, owner: String, into out: inout CodeWriter, _ body: (inout CodeWriter, String) -> Void
    ) -> String {
        guard names.onePerOwner != nil || names.spec.record.maxPerOwner != nil else {
            body(&out, "database")
            return "database"
        }
        out.line("try await database.withTransaction { connection in")
        out.indented { out in
            // NO KEY UPDATE: orders and carts that reference the customer still insert meanwhile.
            out.line("// One write of the customer's rows at a time: the rules across them hold between requests.")
            out.line("try await connection.query(\"SELECT 1 FROM customers WHERE id = $1 FOR NO KEY UPDATE\", \(owner))")
            body(&out, "connection")
        }
        return "connection"
    }
}
