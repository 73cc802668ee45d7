/// Renders the migration that creates a spec's table: SQL types, NOT NULL, CHECKs for
/// min/max/length/enum, UNIQUE, foreign keys and the owner index. Constraint names follow
/// `<table>_<column>_<kind>` so gateways can map violations to fields.
public enum MigrationRenderer {
    /// The file name for `version`: `NNNN_create_<table>.sql`.
    public static func fileName(for spec: SceneSpec, version: Int) -> String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_create_\(spec.record.table).sql"
    }

    /// The Swift list of the tables of entities a customer owns, for the account's deletion: a
    /// table whose rows refer to another's comes before it, so each delete leaves no row
    /// referring to a deleted one (the generated references have no ON DELETE).
    static func customerOwnedTables(_ specs: [SceneSpec]) -> String {
        let owned = specs.filter { $0.entity?.owner != nil }
        var left = owned.map(\.record.table).sorted()
        let refers = Dictionary(uniqueKeysWithValues: owned.map { ($0.record.table, Set($0.record.fields.compactMap(\.references))) })
        var tables: [String] = []
        while !left.isEmpty {
            // The first table no other one left refers to (a cycle, which no migration can
            // create without ON DELETE, keeps its sorted order).
            let next = left.firstIndex { table in !left.contains { $0 != table && refers[$0]!.contains(table) } } ?? 0
            tables.append(left.remove(at: next))
        }
        var out = CodeWriter()
        out.doc(
            "The tables of the generated scenes' entities a customer owns (`owner: customer`): a deleted\naccount's rows in them are deleted with it (`PostgresCustomerSettingStore.deleteAccount`)."
        )
        out.block("enum CustomerOwnedTables") { out in
            out.line("static let names: [String] = [\(tables.map { "\"\($0)\"" }.joined(separator: ", "))]")
        }
        return out.text
    }

    public static func sql(for spec: SceneSpec) -> String {
        let entity = spec.record
        var lines: [String] = []
        var constraints: [String] = []
        for field in entity.fields {
            lines += columns(for: field, table: entity.table, constraints: &constraints)
        }
        if entity.owner != nil {
            lines.insert("customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE", at: 1)
        }
        var out = """
            -- once: created by scenegen from \(spec.file); yours from now on. An applied migration never
            -- changes: add a new file for a later change.
            -- \(spec.scene): \(spec.summary)
            CREATE TABLE \(entity.table) (

            """
        constraints += uniqueConstraints(entity)
        out += (lines + constraints).map { "    " + $0 }.joined(separator: ",\n")
        out += "\n);\n"
        let indexes = indexes(for: spec)
        if !indexes.isEmpty { out += "\n" + indexes.joined() }
        if entity.owner != nil {
            out += """

                -- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
                -- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
                CREATE TRIGGER \(entity.table)_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON \(entity.table)
                    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();

                """
        }
        return out
    }

    /// Every constraint the table's creation gives it, by the field it is named after: what a
    /// migration must state for the table to keep the spec's rules (`MigrationConstraints.stale`).
    static func constraints(for spec: SceneSpec) -> [(field: String, clause: String)] {
        let entity = spec.record
        var named: [(field: String, clause: String)] = []
        for field in entity.fields {
            var constraints: [String] = []
            _ = columns(for: field, table: entity.table, constraints: &constraints)
            named += constraints.map { (field.name, $0) }
        }
        return named + zip(entity.uniqueTogether, uniqueConstraints(entity)).map { (EntitySpec.constraintField(of: $0), $1) }
    }

    /// `CONSTRAINT <table>_<field>_key UNIQUE (...)` per unique group, named after
    /// `EntitySpec.constraintField`. With an optional field in it, an absent value counts as one
    /// value (NULLS NOT DISTINCT): two rows differing only by absent values are the same group.
    private static func uniqueConstraints(_ entity: EntitySpec) -> [String] {
        entity.uniqueTogether.map { group in
            let key = EntitySpec.constraintField(of: group)
            let absentCounts = entity.fields.contains { group.contains($0.name) && $0.optional }
            return
                "CONSTRAINT \(entity.table)_\(key)_key UNIQUE\(absentCounts ? " NULLS NOT DISTINCT" : "") (\(group.joined(separator: ", ")))"
        }
    }

    private static func columns(for field: FieldSpec, table: String, constraints: inout [String]) -> [String] {
        let null = field.primary ? "" : field.optional ? "" : " NOT NULL"
        let column = field.name
        func check(_ name: String, _ condition: String) {
            constraints.append("CONSTRAINT \(table)_\(name)_check CHECK (\(condition))")
        }
        if field.unique { constraints.append("CONSTRAINT \(table)_\(column)_key UNIQUE (\(column))") }
        switch field.type {
        case .money:
            check("\(column)_amount", range("\(column)_amount", min: field.min ?? 0, max: field.max))
            check("\(column)_currency", "\(column)_currency ~ '^[A-Z]{3}$'")
            if field.optional { check("\(column)_complete", "(\(column)_amount IS NULL) = (\(column)_currency IS NULL)") }
            return ["\(column)_amount bigint\(null)", "\(column)_currency text\(null)"]
        case .string, .text:
            if let condition = range("char_length(\(column))", min: field.min, max: field.max) { check(column, condition) }
            return ["\(column) text\(null)\(defaultClause(field))"]
        case .int, .bigint:
            if let condition = range(column, min: field.min, max: field.max) { check(column, condition) }
            return ["\(column) \(field.type == .int ? "integer" : "bigint")\(null)\(defaultClause(field))"]
        case .enumeration(let values):
            check(column, "\(column) IN (\(values.map { "'\($0)'" }.joined(separator: ", ")))")
            return ["\(column) text\(null)\(defaultClause(field))"]
        case .uuid:
            let primary = field.primary ? " PRIMARY KEY" : ""
            let reference = field.references.map { " REFERENCES \($0) (id)" } ?? ""
            return ["\(column) uuid\(primary)\(null)\(reference)"]
        case .bool:
            return ["\(column) boolean\(null)\(defaultClause(field))"]
        case .timestamp:
            return ["\(column) timestamptz\(null)\(defaultClause(field))"]
        case .number:
            // The reader refuses number for entity fields; a column would be a float.
            return ["\(column) double precision\(null)"]
        }
    }

    private static func range(_ expression: String, min: Int64?, max: Int64?) -> String? {
        switch (min, max) {
        case (let min?, let max?): return "\(expression) BETWEEN \(min) AND \(max)"
        case (let min?, nil): return "\(expression) >= \(min)"
        case (nil, let max?): return "\(expression) <= \(max)"
        case (nil, nil): return nil
        }
    }

    private static func range(_ expression: String, min: Int64, max: Int64?) -> String {
        range(expression, min: Optional(min), max: max)!
    }

    private static func defaultClause(_ field: FieldSpec) -> String {
        switch field.defaultValue {
        case nil: return ""
        case .now: return " DEFAULT now()"
        case .int(let value): return " DEFAULT \(value)"
        case .bool(let value): return " DEFAULT \(value)"
        case .string(let value): return " DEFAULT '\(value.replacingOccurrences(of: "'", with: "''"))'"
        }
    }

    /// Keyset pagination runs newest first on `created_at` when the entity has one, else on id;
    /// an owned table is always read per owner, a nested one per parent.
    private static func indexes(for spec: SceneSpec) -> [String] {
        let table = spec.record.table
        let order =
            spec.record.fields.contains { $0.name == "created_at" && $0.type == .timestamp }
            ? "created_at DESC, id DESC" : "id DESC"
        var indexes: [String] = []
        if spec.record.owner != nil {
            indexes.append("CREATE INDEX \(table)_customer_id_idx ON \(table) (customer_id, \(order));\n")
        } else if spec.useCases.contains(where: { $0.kind == .list }) {
            indexes.append("CREATE INDEX \(table)_list_idx ON \(table) (\(order));\n")
        }
        // The store keeps one flagged row per customer under a lock; the index makes it a fact.
        for field in spec.record.fields where field.onePerOwner {
            indexes.append("CREATE UNIQUE INDEX \(table)_\(field.name)_key ON \(table) (customer_id) WHERE \(field.name);\n")
        }
        // The parent of nested routes orders its list too: one index walks a parent's page.
        let lists = spec.useCases.contains { $0.kind == .list }
        for field in spec.record.fields where field.references != nil && !field.unique {
            let columns = field.name == spec.parent?.name && lists ? "\(field.name), \(order)" : field.name
            indexes.append("CREATE INDEX \(table)_\(field.name)_idx ON \(table) (\(columns));\n")
        }
        return indexes
    }
}
