/// The columns the migrations create or add, read once per run: every spec's table is checked
/// against them, and reading all migrations again for each spec made a run quadratic in the
/// number of specs (50 specs spent most of their time lowercasing and searching the same text).
struct MigrationColumns {
    private var created: [String: Set<String>] = [:]
    /// Columns named by `ADD COLUMN` or `RENAME ... TO`, whichever table they belong to.
    private var added = Set<String>()

    init(_ migrations: [String: String]) {
        let sql = migrations.keys.sorted().map { migrations[$0]! }.joined(separator: "\n").lowercased()
        var rest = Substring(sql)
        while let found = rest.range(of: "create table ") {
            rest = rest[found.upperBound...]
            let header = rest.prefix { $0 != "(" && $0 != ";" }
            let table = String(header.split(separator: " ").last ?? "")
            guard rest.dropFirst(header.count).first == "(" else { continue }
            var columns = created[table] ?? []
            for line in rest.dropFirst(header.count + 1).prefix(while: { $0 != ";" }).split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "(" })
                if let first = words.first { columns.insert(String(first)) }
            }
            created[table] = columns
        }
        for phrase in ["add column if not exists ", "add column ", " to "] {
            var rest = Substring(sql)
            while let found = rest.range(of: phrase) {
                rest = rest[found.upperBound...]
                added.insert(String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
            }
        }
    }

    /// Whether `column` of `table` exists once every migration has run.
    func contains(_ column: String, of table: String) -> Bool {
        created[table.lowercased()]?.contains(column) == true || added.contains(column)
    }
}
