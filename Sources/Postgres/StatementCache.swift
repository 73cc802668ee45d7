/// The prepared statements of one connection, by SQL text. Each is prepared once per session;
/// its result columns are remembered after the first execution so that rows of later executions
/// share one column index.
struct StatementCache {
    struct Statement {
        let name: String
        var columns: PostgresColumns?
    }

    private var bySQL: [String: Statement] = [:]

    subscript(sql: String) -> Statement? { bySQL[sql] }

    /// The name the next new statement is prepared under.
    var nextName: String { "sf_\(bySQL.count)" }

    /// Records that `sql` is now prepared under `nextName`.
    mutating func add(_ sql: String) -> Statement {
        let statement = Statement(name: nextName, columns: nil)
        bySQL[sql] = statement
        return statement
    }

    mutating func remember(_ columns: PostgresColumns, for sql: String) {
        bySQL[sql]?.columns = columns
    }
}
