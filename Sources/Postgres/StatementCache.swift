/// The prepared statements of one connection, by SQL text. Each is prepared once per session;
/// its result columns are remembered after the first execution so that rows of later executions
/// share one column index.
struct StatementCache {
    struct Statement {
        let name: String
        var columns: PostgresColumns?
    }

    private var bySQL: [String: Statement] = [:]

    /// The statement for `sql`, preparing it under a fresh name through `prepare` when unseen.
    mutating func prepared(
        _ sql: String, prepare: (String) throws(PostgresError) -> Void
    ) throws(PostgresError) -> Statement {
        if let statement = bySQL[sql] { return statement }
        let statement = Statement(name: "sf_\(bySQL.count)", columns: nil)
        try prepare(statement.name)
        bySQL[sql] = statement
        return statement
    }

    mutating func remember(_ columns: PostgresColumns, for sql: String) {
        bySQL[sql]?.columns = columns
    }
}
