import CLibPQ
import Dispatch
import Foundation

/// One libpq connection. libpq's calls block, so every one of them runs on this connection's own
/// serial dispatch queue, never on Swift's cooperative pool: the pool's size bounds how many
/// threads can be blocked in libpq at once. (Why not libpq's non-blocking API: see
/// `Benchmarks/README.md`.) A connection is used by one task at a time, handed out by the pool.
public final class PostgresConnection: PostgresExecutor, @unchecked Sendable {
    // All mutable state below is touched only on `queue`.
    private let queue: DispatchQueue
    private var handle: OpaquePointer?
    private var statements = StatementCache()
    /// Set when the pool lends the connection out; the next statement first checks the link
    /// (see `ensureHealthy`) on the same queue hop, so a lent connection costs no extra thread
    /// switch. Written before `queue.async`, read on the queue: dispatch orders the two.
    private var needsHealthCheck = false

    private init(handle: OpaquePointer, queue: DispatchQueue) {
        self.handle = handle
        self.queue = queue
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Opens a connection.
    /// - Parameter conninfo: a `postgresql://` URL or a `key=value` string, as libpq reads them.
    /// - Throws: `PostgresError.connection` with libpq's own message.
    static func connect(_ settings: PostgresConnectionSettings) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "storefront.postgres.connection")
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result { () throws(PostgresError) in
                        let handle = try settings.open()
                        return PostgresConnection(handle: handle, queue: queue)
                    })
            }
        }
    }

    /// Runs `work` on the connection's queue, where blocking in libpq is allowed.
    private func onQueue<T: Sendable>(
        _ work: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(PostgresError) in try work(self) })
            }
        }
    }

    public func query(_ sql: String, binds: [any PostgresEncodable]) async throws -> PostgresResult {
        let texts = binds.map(\.postgresText)
        return try await onQueue { connection throws(PostgresError) in
            try connection.executePrepared(sql, texts)
        }
    }

    /// Runs trusted SQL text with no parameters through the simple-query protocol: transaction
    /// control and migration files (which may hold many statements). Never pass it user input.
    /// - Throws: `PostgresError`.
    public func executeScript(_ sql: String) async throws {
        try await onQueue { connection throws(PostgresError) in try connection.runScript(sql) }
    }

    /// Called by the pool as it lends the connection out: the next statement first makes the
    /// connection fit for a new unit of work (`ensureHealthy`).
    func markLent() {
        needsHealthCheck = true
    }

    /// Closes the link; the object is unusable afterwards.
    func close() async {
        _ = try? await onQueue { connection throws(PostgresError) in
            if let handle = connection.handle { PQfinish(handle) }
            connection.handle = nil
        }
    }

    // MARK: - on the queue

    private func liveHandle() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .connection(message: "connection is closed") }
        return handle
    }

    /// Reads what the server sent while the connection sat idle (a shutdown notice, say) and, if
    /// the link is broken, re-opens it with `PQreset`. A reset forgets the prepared statements,
    /// which lived in the old session.
    /// - Throws: `PostgresError.connection` when the server still cannot be reached.
    private func ensureHealthy() throws(PostgresError) {
        guard needsHealthCheck else { return }
        needsHealthCheck = false
        let handle = try liveHandle()
        if PQstatus(handle) == CONNECTION_OK { _ = PQconsumeInput(handle) }
        if PQstatus(handle) != CONNECTION_OK {
            statements = StatementCache()
            PQreset(handle)
            guard PQstatus(handle) == CONNECTION_OK else {
                throw .connection(message: Self.errorMessage(handle))
            }
        }
        // A unit of work that ended without COMMIT/ROLLBACK (a cancelled task) must not leak.
        if PQtransactionStatus(handle) != PQTRANS_IDLE { try runScript("ROLLBACK") }
    }

    private func executePrepared(_ sql: String, _ texts: [String?]) throws(PostgresError) -> PostgresResult {
        try ensureHealthy()
        let handle = try liveHandle()
        let statement = try statements.prepared(sql) { name throws(PostgresError) in
            let result = PQprepare(handle, name, sql, 0, nil)
            defer { PQclear(result) }
            try Self.check(result, handle)
        }
        let result = texts.withCStrings { values in
            PQexecPrepared(handle, statement.name, Int32(texts.count), values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try Self.check(result, handle)
        let columns = statement.columns ?? Self.columns(of: result!)
        if statement.columns == nil { statements.remember(columns, for: sql) }
        return Self.read(result!, columns: columns)
    }

    private func runScript(_ sql: String) throws(PostgresError) {
        try ensureHealthy()
        let handle = try liveHandle()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try Self.check(result, handle)
    }

    private static func check(_ result: OpaquePointer?, _ handle: OpaquePointer) throws(PostgresError) {
        guard let result else { throw .connection(message: errorMessage(handle)) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            guard let sqlState = field(result, "C") else {
                throw .connection(message: errorMessage(handle))
            }
            throw PostgresError.from(
                PostgresErrorInfo(
                    sqlState: sqlState,
                    message: field(result, "M") ?? errorMessage(handle),
                    detail: field(result, "D"),
                    constraint: field(result, "n"),
                    table: field(result, "t"),
                    column: field(result, "c")
                ))
        }
    }

    private static func field(_ result: OpaquePointer, _ code: Character) -> String? {
        guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
        return String(cString: value)
    }

    static func errorMessage(_ handle: OpaquePointer) -> String {
        guard let message = PQerrorMessage(handle) else { return "unknown libpq error" }
        // libpq's text may span lines ("...refused\n\tIs the server running..."): keep it one line.
        let text = String(cString: message).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? "unknown libpq error" : text
    }

    private static func columns(of result: OpaquePointer) -> PostgresColumns {
        let count = PQnfields(result)
        var names: [String] = []
        var types: [PostgresType] = []
        names.reserveCapacity(Int(count))
        types.reserveCapacity(Int(count))
        for column in 0..<count {
            names.append(String(cString: PQfname(result, column)))
            types.append(PostgresType(rawValue: PQftype(result, column)))
        }
        return PostgresColumns(names: names, types: types)
    }

    private static func read(_ result: OpaquePointer, columns: PostgresColumns) -> PostgresResult {
        let rowCount = PQntuples(result)
        let columnCount = Int32(columns.names.count)
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    values.append(String(cString: PQgetvalue(result, row, column)))
                }
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresResult(rows: rows, affectedRows: affected)
    }
}

extension Array where Element == String? {
    /// Lends the values to C as `const char * const *`, NULL pointers for SQL NULL.
    fileprivate func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        if isEmpty { return body(nil) }
        var pointers: [UnsafeMutablePointer<CChar>?] = map { $0.flatMap { strdup($0) } }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: count) {
                body($0)
            }
        }
    }
}
