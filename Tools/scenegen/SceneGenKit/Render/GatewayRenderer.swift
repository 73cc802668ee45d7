/// The Gateway layer: the PostgreSQL store of the entity (every statement parameterized, scoped
/// to the owner when the entity has one). Http gateways are `HTTPGatewayRenderer`'s.
enum GatewayRenderer {
    static func store(_ names: SceneNames, migration: String) -> String {
        let e = names.entity
        let table = names.spec.entity.table
        let v = names.entityVariable
        let columns = names.columns
        let scope = names.owned ? " AND customer_id = $2" : ""
        var out = "import Domain\nimport Foundation\nimport Postgres\n\n"
        out += "/// `\(names.store)` on PostgreSQL: table `\(table)` (\(migration)).\n"
        out += "public struct \(names.postgresStore): \(names.store) {\n"
        out += "    static let columns = \(swiftString(columns.joined(separator: ", ")))\n\n"
        out += "    private let database: PostgresPool\n\n"
        out += "    public init(database: PostgresPool) {\n        self.database = database\n    }\n\n"

        // insert
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

        if names.hasCreatedAt {
            let owner = names.owned ? "customer_id = $1 AND " : ""
            let ownerWhere = names.owned ? " WHERE customer_id = $1" : ""
            let n = names.owned ? 2 : 1
            out += "    public func page(\(names.ownerParameter)after cursor: PageCursor?, limit: Int) async throws -> [\(e)] {\n"
            out += "        try await translatingUnavailable {\n"
            out += "            let order = \"ORDER BY created_at DESC, id DESC\"\n"
            out += "            guard let cursor else {\n"
            out +=
                "                return try await database.query(\"SELECT \\(Self.columns) FROM \(table)\(ownerWhere) \\(order) LIMIT $\(n)\"\(names.owned ? ", customerID" : ""), limit)\n"
            out += "                    .rows.map(Self.record(from:))\n"
            out += "            }\n"
            out += "            return try await database.query(\n"
            out +=
                "                \"SELECT \\(Self.columns) FROM \(table) WHERE \(owner)(created_at, id) < ($\(n)::timestamptz, $\(n + 1)::uuid) \\(order) LIMIT $\(n + 2)\",\n"
            out += "                \(names.owned ? "customerID, " : "")cursor.createdAt, cursor.id, limit\n"
            out += "            ).rows.map(Self.record(from:))\n"
            out += "        }\n    }\n\n"
        }

        out += "    public func find(\(names.ownerParameter)id: UUID) async throws -> \(e)? {\n"
        out += "        try await translatingUnavailable {\n"
        out +=
            "            try await database.query(\"SELECT \\(Self.columns) FROM \(table) WHERE id = $1\(scope)\", id\(names.owned ? ", customerID" : ""))\n"
        out += "                .rows.first.map(Self.record(from:))\n"
        out += "        }\n    }\n\n"

        if names.updates {
            var assignments: [String] = []
            var updateBinds = ["id"] + (names.owned ? ["customerID"] : [])
            for field in names.writable {
                let values = field.binds("patch.\(field.property)", optional: true)
                for (column, value) in zip(field.columns, values) {
                    updateBinds.append(value)
                    assignments.append("\(column) = COALESCE($\(updateBinds.count), \(column))")
                }
            }
            out += "    public func update(\(names.ownerParameter)id: UUID, with patch: \(names.patch)) async throws -> \(e)? {\n"
            out += "        try await translatingRecordErrors(table: \(swiftString(table))) {\n"
            out += "            try await database.query(\n"
            out += "                \"\"\"\n                UPDATE \(table) SET\n"
            out += assignments.map { "                    " + $0 }.joined(separator: ",\n") + "\n"
            out += "                WHERE id = $1\(scope) RETURNING \\(Self.columns)\n                \"\"\",\n"
            out += wrap(updateBinds, indent: "                ") + "\n"
            out += "            ).rows.first.map(Self.record(from:))\n"
            out += "        }\n    }\n\n"
        }

        out += "    public func delete(\(names.ownerParameter)id: UUID) async throws -> Bool {\n"
        out += "        try await translatingUnavailable {\n"
        out +=
            "            let deleted = try await database.query(\"DELETE FROM \(table) WHERE id = $1\(scope) RETURNING id\", id\(names.owned ? ", customerID" : ""))\n"
        out += "            return !deleted.rows.isEmpty\n"
        out += "        }\n    }\n\n"

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
