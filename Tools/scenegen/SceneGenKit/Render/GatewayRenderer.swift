/// The Gateway layer: the PostgreSQL store of the entity (every statement parameterized, scoped
/// to the owner when the entity has one). Http gateways are `HTTPGatewayRenderer`'s.
enum GatewayRenderer {
    static func store(_ names: SceneNames, migration: String) -> String {
        /// `customer_id = $2`, or, when public and admin routes read every customer's rows,
        /// `($2::uuid IS NULL OR customer_id = $2)`.
        func filter(_ item: (label: String, column: String), at index: Int) -> String {
            names.scopeType(item.label) == "UUID?"
                ? "($\(index)::uuid IS NULL OR \(item.column) = $\(index))" : "\(item.column) = $\(index)"
        }
        let e = names.entity
        let table = names.spec.record.table
        let v = names.entityVariable
        let columns = names.columns
        // Rows are scoped by the owner and the parent: `WHERE id = $1 AND customer_id = $2 ...`.
        let scope = names.scope.enumerated().map { " AND " + filter($1, at: $0 + 2) }.joined()
        let scopeBinds = names.scope.map { ", \($0.label)" }.joined()
        var out = "import Domain\nimport Foundation\nimport Postgres\n\n"
        out += "/// `\(names.store)` on PostgreSQL: table `\(table)` (\(migration)).\n"
        out += "public struct \(names.postgresStore): \(names.store) {\n"
        out += "    static let columns = \(swiftString(columns.joined(separator: ", ")))\n\n"
        out += "    private let database: PostgresPool\n\n"
        out += "    public init(database: PostgresPool) {\n        self.database = database\n    }\n\n"

        // Only the methods the spec's CRUD kinds call.
        if names.creates {
            var binds: [String] = []
            for (index, field) in names.fields.enumerated() {
                binds += field.binds("\(v).\(field.property)", optional: field.field.optional)
                if index == 0 && names.owned { binds.append("\(v).customerID") }
            }
            let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
            out += "    public func insert(_ \(v): \(e)) async throws -> \(e) {\n"
            out += "        try await translatingRecordErrors(table: \(swiftString(table))) {\n"
            out += "            let rows = try await database.query(\n"
            out += "                \"INSERT INTO \(table) (\\(Self.columns)) VALUES (\(placeholders)) RETURNING \\(Self.columns)\",\n"
            out += wrap(binds, indent: "                ") + "\n"
            out += "            ).rows\n"
            out += "            return try Self.record(from: rows[0])\n"
            out += "        }\n    }\n\n"
        }

        if names.lists {
            // The scope, then each filter: `($3::text IS NULL OR status = $3)`.
            var filters = names.scope.enumerated().map { filter($1, at: $0 + 1) }
            var leadingBinds = names.scope.map(\.label)
            for field in names.filterFields {
                let index = filters.count + 1
                filters.append("($\(index)::\(sqlType(field)) IS NULL OR \(field.name) = $\(index))")
                leadingBinds += field.binds("filter.\(field.property)", optional: true)
            }
            let n = filters.count + 1
            let scopeWhere = filters.isEmpty ? "" : " WHERE " + filters.joined(separator: " AND ")
            let scopeAnd = filters.map { $0 + " AND " }.joined()
            let leading = leadingBinds.map { "\($0), " }.joined()
            let matching = names.filterFields.isEmpty ? "" : "matching filter: \(names.filter), "
            out +=
                "    public func page(\(names.scopeParameter)\(matching)after cursor: PageCursor?, limit: Int) async throws -> [\(e)] {\n"
            out += "        try await translatingUnavailable {\n"
            out += "            let order = \"ORDER BY created_at DESC, id DESC\"\n"
            out += "            let found: [\(e)]\n"
            out += "            if let cursor {\n"
            out += "                found = try await database.query(\n"
            out +=
                "                    \"SELECT \\(Self.columns) FROM \(table) WHERE \(scopeAnd)(created_at, id) < ($\(n)::timestamptz, $\(n + 1)::uuid) \\(order) LIMIT $\(n + 2)\",\n"
            out += "                    \(leading)cursor.createdAt, cursor.id, limit\n"
            out += "                ).rows.map(Self.record(from:))\n"
            out += "            } else {\n"
            out +=
                "                found = try await database.query(\"SELECT \\(Self.columns) FROM \(table)\(scopeWhere) \\(order) LIMIT $\(n)\", \(leading)limit)\n"
            out += "                    .rows.map(Self.record(from:))\n"
            out += "            }\n"
            if let parent = names.parent, let label = names.parentLabel, let parentTable = parent.field.references {
                // An empty page under a parent that does not exist is a 404, not an empty list.
                out +=
                    "            if found.isEmpty, try await database.query(\"SELECT 1 FROM \(parentTable) WHERE id = $1\", \(parent.bareProperty)).rows.isEmpty {\n"
                out +=
                    "                throw RecordError.notFound(entity: \(swiftString(label)), id: \(parent.bareProperty))\n            }\n"
            }
            out += "            return found\n"
            out += "        }\n    }\n\n"
        }

        if names.gets {
            out += "    public func find(\(names.scopeParameter)id: UUID) async throws -> \(e)? {\n"
            out += "        try await translatingUnavailable {\n"
            out +=
                "            try await database.query(\"SELECT \\(Self.columns) FROM \(table) WHERE id = $1\(scope)\", id\(scopeBinds))\n"
            out += "                .rows.first.map(Self.record(from:))\n"
            out += "        }\n    }\n\n"
        }

        if names.updates {
            var assignments: [String] = []
            var updateBinds = ["id"] + names.scope.map(\.label)
            for field in names.writable {
                let values = field.binds("patch.\(field.property)", optional: true)
                for (column, value) in zip(field.columns, values) {
                    updateBinds.append(value)
                    assignments.append("\(column) = COALESCE($\(updateBinds.count), \(column))")
                }
            }
            out += "    public func update(\(names.scopeParameter)id: UUID, with patch: \(names.patch)) async throws -> \(e)? {\n"
            out += "        try await translatingRecordErrors(table: \(swiftString(table))) {\n"
            out += "            try await database.query(\n"
            out += "                \"\"\"\n                UPDATE \(table) SET\n"
            out += assignments.map { "                    " + $0 }.joined(separator: ",\n") + "\n"
            out += "                WHERE id = $1\(scope) RETURNING \\(Self.columns)\n                \"\"\",\n"
            out += wrap(updateBinds, indent: "                ") + "\n"
            out += "            ).rows.first.map(Self.record(from:))\n"
            out += "        }\n    }\n\n"
        }

        if names.deletes {
            out += "    public func delete(\(names.scopeParameter)id: UUID) async throws -> Bool {\n"
            out += "        try await translatingUnavailable {\n"
            out +=
                "            let deleted = try await database.query(\"DELETE FROM \(table) WHERE id = $1\(scope) RETURNING id\", id\(scopeBinds))\n"
            out += "            return !deleted.rows.isEmpty\n"
            out += "        }\n    }\n\n"
        }

        out += "    /// Decodes a row selected with `columns`.\n"
        out += "    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.\n"
        out += "    static func record(from row: PostgresRow) throws -> \(e) {\n"
        out += "        \(e)(\n"
        var decodes: [String] = []
        for (index, field) in names.fields.enumerated() {
            decodes.append("            \(field.bareProperty): \(field.decode)")
            if index == 0 && names.owned { decodes.append("            customerID: try row.decode(\"customer_id\")") }
        }
        out += decodes.joined(separator: ",\n") + "\n        )\n    }\n}\n"
        return out
    }

    /// The PostgreSQL type a filter's parameter is cast to (a NULL parameter has none).
    private static func sqlType(_ field: SwiftField) -> String {
        switch field.field.type {
        case .uuid: "uuid"
        case .bool: "boolean"
        case .int: "integer"
        case .bigint: "bigint"
        default: "text"
        }
    }

    /// Arguments on lines of at most about 100 characters.
    private static func wrap(_ items: [String], indent: String) -> String {
        var lines: [String] = []
        var line = ""
        for item in items {
            let piece = line.isEmpty ? item : line + ", " + item
            if piece.count > 100 && !line.isEmpty {
                lines.append(line + ",")
                line = item
            } else {
                line = piece
            }
        }
        lines.append(line)
        return lines.map { indent + $0 }.joined(separator: "\n")
    }
}
