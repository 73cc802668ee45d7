/// What one connection remembers per SQL text: the name it is prepared under in the current
/// server session (when statements are named), and its result columns after the first execution,
/// so that rows of later executions share one column index. Columns outlive the session (a
/// statement's result shape does not depend on it); names do not.
///
/// A session keeps at most `capacity` statements prepared: the catalog's filters make a text per
/// combination, and each prepared statement holds the server's memory (its plans) for as long as
/// the session lives. Past it the least recently used is given up, and deallocated on the server
/// before the connection's next unit of work (`takeGivenUp`).
struct StatementCache {
    static let capacity = 256

    private struct Prepared {
        let name: String
        var lastUse: UInt64
    }

    private var prepared: [String: Prepared] = [:]
    private var columnsBySQL: [String: PostgresColumns] = [:]
    /// Uses counted, for recency.
    private var uses: UInt64 = 0
    /// Names handed out in this session: a name is never given twice in one session, a given-up
    /// one included.
    private var named = 0
    private var givenUp: [String] = []

    /// Whether `sql` is prepared in this session (no use of it).
    func isPrepared(_ sql: String) -> Bool { prepared[sql] != nil }

    /// The name `sql` is prepared under in this session, if it is; a use of it.
    mutating func name(of sql: String) -> String? {
        guard let index = prepared.index(forKey: sql) else { return nil }
        uses &+= 1
        prepared.values[index].lastUse = uses
        return prepared.values[index].name
    }

    /// The name the next new statement is prepared under.
    var nextName: String { "sf_\(named)" }

    /// Records that `sql` is now prepared under `nextName` and returns that name, giving up the
    /// least recently used statement when `capacity` are prepared.
    mutating func addName(for sql: String) -> String {
        if prepared.count >= Self.capacity, let oldest = prepared.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            forget(oldest.key)
        }
        let name = nextName
        named += 1
        uses &+= 1
        prepared[sql] = Prepared(name: name, lastUse: uses)
        return name
    }

    /// Gives up `sql`'s prepared statement and its columns: the next execution prepares it anew
    /// (its result's shape changed under it, or room is needed).
    mutating func forget(_ sql: String) {
        if let name = prepared.removeValue(forKey: sql)?.name { givenUp.append(name) }
        columnsBySQL[sql] = nil
    }

    /// The names given up since last asked, to deallocate on the server.
    mutating func takeGivenUp() -> [String] {
        defer { givenUp.removeAll() }
        return givenUp
    }

    /// Forgets every prepared name: the session they lived in is gone (the link was re-opened).
    mutating func forgetSession() {
        prepared.removeAll()
        givenUp.removeAll()
        named = 0
    }

    /// The columns `sql`'s results had, if they are those of `result` (a migration under a
    /// running instance may change a statement's columns, their types included).
    func columns(of sql: String, matching result: OpaquePointer) -> PostgresColumns? {
        guard let columns = columnsBySQL[sql], PostgresConnection.result(result, matches: columns) else { return nil }
        return columns
    }

    mutating func remember(_ columns: PostgresColumns, for sql: String) {
        columnsBySQL[sql] = columns
    }
}
