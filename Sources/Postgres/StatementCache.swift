/// What one connection remembers per SQL text: the name it is prepared under in the current
/// server session (when statements are named), and its result columns after the first execution,
/// so that rows of later executions share one column index. Columns outlive the session (a
/// statement's result shape does not depend on it); names do not.
struct StatementCache {
    private var names: [String: String] = [:]
    private var columnsBySQL: [String: PostgresColumns] = [:]

    /// The name `sql` is prepared under in this session, if it is.
    func name(of sql: String) -> String? { names[sql] }

    /// The name the next new statement is prepared under.
    var nextName: String { "sf_\(names.count)" }

    /// Records that `sql` is now prepared under `nextName` and returns that name.
    mutating func addName(for sql: String) -> String {
        let name = nextName
        names[sql] = name
        return name
    }

    /// Forgets every prepared name: the session they lived in is gone (the link was re-opened).
    mutating func forgetSession() {
        names.removeAll()
    }

    func columns(of sql: String) -> PostgresColumns? { columnsBySQL[sql] }

    mutating func remember(_ columns: PostgresColumns, for sql: String) {
        columnsBySQL[sql] = columns
    }
}
