/// The constraints a table has once every migration has run, as the migrations state them: the
/// last statement naming a constraint wins (`CONSTRAINT <name> CHECK (...)` or `UNIQUE (...)`
/// defines it, `DROP CONSTRAINT <name>` removes it). scenegen reads them, never a database, to
/// tell whether the table keeps the rules a spec now gives its checks.
struct MigrationConstraints {
    /// Each constraint's last definition, whitespace collapsed; `nil` once dropped.
    private(set) var clauses: [String: String?] = [:]

    /// - Parameter migrations: file name to text; read in name order, as they run.
    init(_ migrations: [String: String]) {
        for name in migrations.keys.sorted() { read(Self.flat(migrations[name]!)) }
    }

    static func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    private mutating func read(_ text: String) {
        for match in text.matches(of: /DROP CONSTRAINT (?:IF EXISTS )?(\w+)|CONSTRAINT (\w+) (?:CHECK|UNIQUE)/) {
            if let dropped = match.output.1 {
                clauses[String(dropped)] = .some(nil)
            } else if let defined = match.output.2, let clause = Self.clause(in: text, from: match.range.lowerBound) {
                clauses[String(defined)] = clause
            }
        }
    }

    /// `CONSTRAINT ... (...)` from `start` through the parenthesis closing its first one.
    private static func clause(in text: String, from start: String.Index) -> String? {
        guard let open = text[start...].firstIndex(of: "(") else { return nil }
        var depth = 0
        for index in text[open...].indices {
            switch text[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return String(text[start...index]) }
            default: break
            }
        }
        return nil
    }

    /// The spec's rules (a bound, enum values, a uniqueness) the table does not keep as the spec
    /// now has them, and the rules a field lost that the table still keeps: the generated checks
    /// follow the spec at once, the table only migrations, so a value one allows and the other
    /// refuses would answer 500.
    static func stale(_ spec: SceneSpec, created: String, in migrations: [String: String]) -> [String] {
        let entity = spec.record
        let current = MigrationConstraints(migrations).clauses
        let rendered = MigrationRenderer.constraints(for: spec)
        func place(_ field: String) -> String {
            let position = entity.fields.first { $0.name == field }?.position
            return "\(spec.file):\(position?.line ?? 1):\(position?.column ?? 1)"
        }
        var errors: [String] = []
        for (field, clause) in rendered {
            let name = clause.split(separator: " ")[1]
            guard current[String(name)] != .some(clause) else { continue }
            errors.append(
                "\(place(field)): error: the rule for '\(field)' is not the one the migrations leave \(entity.table) with (since \(created) created it), so the table would refuse with a 500 what the checks allow: add a migration, ALTER TABLE \(entity.table) DROP CONSTRAINT IF EXISTS \(name), ADD \(clause); or delete \(created) if no database has applied it yet"
            )
        }
        // A field's own constraints the spec no longer asks for (a bound or a uniqueness removed).
        let names = Set(rendered.map { String($0.clause.split(separator: " ")[1]) })
        for field in entity.fields {
            let columns =
                field.type == .money ? ["\(field.name)_amount", "\(field.name)_currency", "\(field.name)_complete"] : [field.name]
            for name in columns.flatMap({ ["\(entity.table)_\($0)_check", "\(entity.table)_\($0)_key"] })
            where !names.contains(name) && current[name]??.isEmpty == false {
                errors.append(
                    "\(place(field.name)): error: \(entity.table) keeps \(name), which the spec no longer asks for '\(field.name)': add a migration, ALTER TABLE \(entity.table) DROP CONSTRAINT \(name)"
                )
            }
        }
        return errors
    }
}
