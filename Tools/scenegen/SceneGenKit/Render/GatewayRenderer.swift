/// The Gateway layer: the PostgreSQL store of the entity (every statement parameterized, scoped
/// to the owner when the entity has one). Http gateways are `HTTPGatewayRenderer`'s.
enum GatewayRenderer {
    static func store(_ names: SceneNames, migration: String) -> String {
        let e = names.entity
        let table = names.spec.record.table
        let v = names.entityVariable
        let columns = names.columns
        // Rows are scoped by the owner and the parent: `WHERE id = $1 AND customer_id = $2 ...`.
        let scope = names.scope.enumerated().map { " AND " + filter(names, $1, at: $0 + 2) }.joined()
        let scopeBinds = names.scope.map { ", \($0.label)" }.joined()
        var out = CodeWriter()
        out.lines(["import Domain", "import Foundation", "import Postgres", ""])
        out.doc("`\(names.store)` on PostgreSQL: table `\(table)` (\(migration)).")
        out.block("public struct \(names.postgresStore): \(names.store)") { out in
            out.line("static let columns = \(swiftString(columns.joined(separator: ", ")))")
            out.blank()
            out.line("private let database: PostgresPool")
            out.blank()
            out.block("public init(database: PostgresPool)") { $0.line("self.database = database") }
            out.blank()

            // Only the methods the spec's CRUD kinds call.
            if names.creates {
                insert(names, into: &out)
                out.blank()
            }
            if names.lists {
                page(names, into: &out)
                out.blank()
            }

            if names.gets {
                out.block("public func find(\(names.scopeParameter)id: UUID) async throws -> \(e)?") { out in
                    out.block("try await translatingUnavailable") { out in
                        out.line(
                            "try await database.query(\"SELECT \\(Self.columns) FROM \(table) WHERE id = $1\(scope)\", id\(scopeBinds))")
                        out.indented { $0.line(".rows.first.map(Self.record(from:))") }
                    }
                }
                out.blank()
            }

            if names.updates {
                write(names, method: "update", into: &out)
                out.blank()
            }

            if names.replaces {
                write(names, method: "replace", into: &out)
                out.blank()
            }

            if names.deletes {
                out.block("public func delete(\(names.scopeParameter)id: UUID) async throws -> Bool") { out in
                    out.block("try await translatingRecordErrors(table: \(swiftString(table)))") { out in
                        out.line(
                            "let deleted = try await database.query(\"DELETE FROM \(table) WHERE id = $1\(scope) RETURNING id\", id\(scopeBinds))"
                        )
                        out.line("return !deleted.rows.isEmpty")
                    }
                }
                out.blank()
            }

            var decodes: [String] = []
            for (index, field) in names.fields.enumerated() {
                decodes.append("\(field.bareProperty): \(field.decode)")
                if index == 0 && names.owned { decodes.append("customerID: try row.decode(\"customer_id\")") }
            }
            out.doc("Decodes a row selected with `columns`.\n- Throws: `PostgresError.decoding` when the schema and this code disagree.")
            out.block("static func record(from row: PostgresRow) throws -> \(e)") { out in
                out.list("\(e)(", decodes)
            }
        }
        return out.text
    }

    /// `page(...)`: newest first after the cursor, scoped and filtered; under a parent that does
    /// not exist, `RecordError.notFound`.
    private static func page(_ names: SceneNames, into out: inout CodeWriter) {
        let e = names.entity
        let table = names.spec.record.table
        // The scope, then each filter: `($3::text IS NULL OR status = $3)`.
        var filters = names.scope.enumerated().map { filter(names, $1, at: $0 + 1) }
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
        out.block("public func page(\(names.scopeParameter)\(matching)after cursor: PageCursor?, limit: Int) async throws -> [\(e)]") {
            out in
            out.block("try await translatingUnavailable") { out in
                out.line("let order = \"ORDER BY created_at DESC, id DESC\"")
                out.line("let found: [\(e)]")
                out.block("if let cursor", closer: "} else {") { out in
                    out.line("found = try await database.query(")
                    out.indented { out in
                        out.line(
                            "\"SELECT \\(Self.columns) FROM \(table) WHERE \(scopeAnd)(created_at, id) < ($\(n)::timestamptz, $\(n + 1)::uuid) \\(order) LIMIT $\(n + 2)\","
                        )
                        out.line("\(leading)cursor.createdAt, cursor.id, limit")
                    }
                    out.line(").rows.map(Self.record(from:))")
                }
                out.indented { out in
                    out.line(
                        "found = try await database.query(\"SELECT \\(Self.columns) FROM \(table)\(scopeWhere) \\(order) LIMIT $\(n)\", \(leading)limit)"
                    )
                    out.indented { $0.line(".rows.map(Self.record(from:))") }
                }
                out.line("}")
                if let parent = names.parent, let label = names.parentLabel, let parentTable = parent.field.references {
                    // An empty page under a parent that does not exist is a 404, not an empty list;
                    // so is one under another customer's parent, to a customer's route.
                    let exists =
                        names.owned && names.parentOwned
                        ? "\"SELECT 1 FROM \(parentTable) WHERE id = $1 AND ($2::uuid IS NULL OR customer_id = $2)\", \(parent.bareProperty), customerID"
                        : "\"SELECT 1 FROM \(parentTable) WHERE id = $1\", \(parent.bareProperty)"
                    out.block("if found.isEmpty, try await database.query(\(exists)).rows.isEmpty") {
                        $0.line("throw RecordError.notFound(entity: \(swiftString(label)), id: \(parent.bareProperty))")
                    }
                }
                out.line("return found")
            }
        }
    }

    /// `customer_id = $2`, or, when public and admin routes read every customer's rows,
    /// `($2::uuid IS NULL OR customer_id = $2)`.
    static func filter(_ names: SceneNames, _ item: (label: String, column: String), at index: Int) -> String {
        names.scopeType(item.label) == "UUID?"
            ? "($\(index)::uuid IS NULL OR \(item.column) = $\(index))" : "\(item.column) = $\(index)"
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
    static func wrap(_ items: [String]) -> [String] {
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
        return lines
    }

    /// `, groups: ["name": ["country", "name"]]`: the unique groups of two or more fields besides
    /// the owner, by the field their constraint is named after, so a taken pair is reported as one.
    static func groups(_ names: SceneNames) -> String {
        let groups = names.spec.record.uniqueTogether.map { $0.filter { $0 != "customer_id" } }.filter { $0.count > 1 }
        guard !groups.isEmpty else { return "" }
        let entries = groups.map { "\(swiftString($0.last!)): [\($0.map(swiftString).joined(separator: ", "))]" }
        return ", groups: [\(entries.joined(separator: ", "))]"
    }
}
