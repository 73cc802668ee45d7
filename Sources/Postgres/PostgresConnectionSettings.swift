import CLibPQ
import Foundation

/// How to open a connection: the caller's connection string plus the session settings every
/// connection of ours gets. libpq parses the string, so both URL and `key=value` forms work and a
/// bad one is reported in libpq's words.
public struct PostgresConnectionSettings: Sendable {
    /// `postgresql://user@host:port/db?...` or `host=... dbname=...`.
    public var conninfo: String
    /// Seconds libpq waits for a connection to open (libpq's `connect_timeout`).
    public var connectTimeoutSeconds: Int
    /// Server-side limit on one statement; `nil` leaves the server default.
    public var statementTimeoutMilliseconds: Int?
    /// Server-side limit on waiting for one lock; `nil` leaves the server default.
    public var lockTimeoutMilliseconds: Int?
    public var applicationName: String
    /// True when the connection string names a pooler in transaction mode (PgBouncer's
    /// `pool_mode = transaction`), which hands each transaction, or each statement outside one, to
    /// any of its server sessions. Nothing may then live in a session: statements are sent unnamed
    /// instead of prepared once per session, and no `options` startup parameter is sent (PgBouncer
    /// refuses it), so the session settings and timeouts must be the role's defaults
    /// (`checkPooledSessionSettings`).
    public var behindTransactionPooler: Bool

    public init(
        conninfo: String, connectTimeoutSeconds: Int = 5, statementTimeoutMilliseconds: Int? = nil,
        lockTimeoutMilliseconds: Int? = nil, applicationName: String = "storefront", behindTransactionPooler: Bool = false
    ) {
        self.conninfo = conninfo
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
        self.applicationName = applicationName
        self.behindTransactionPooler = behindTransactionPooler
    }

    /// Checks the connection string's syntax without connecting.
    /// - Throws: `PostgresError.connection` with libpq's parse error.
    public func validate() throws(PostgresError) {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            let message = error.map { String(cString: $0) } ?? "invalid connection string"
            if let error { PQfreemem(error) }
            throw .connection(message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        PQconninfoFree(options)
    }

    /// Opens a libpq connection; blocks, so it runs on a dispatch thread (see `PostgresConnection`).
    func open() throws(PostgresError) -> OpaquePointer {
        // Our defaults come first: with expand_dbname the caller's string, given last as `dbname`,
        // overrides any of them it sets itself.
        var sessionOptions = "-c TimeZone=UTC -c DateStyle=ISO -c client_min_messages=warning"
        if let statementTimeoutMilliseconds {
            sessionOptions += " -c statement_timeout=\(statementTimeoutMilliseconds)"
        }
        if let lockTimeoutMilliseconds {
            sessionOptions += " -c lock_timeout=\(lockTimeoutMilliseconds)"
        }
        var pairs: [(String, String)] = [
            ("connect_timeout", String(connectTimeoutSeconds)),
            ("application_name", applicationName),
            // A link whose other end vanished without a word (a host gone from the network) is
            // noticed within a minute, not the system's two hours, whether it sits idle
            // (keepalives; the notification listener, `PostgresListener`, waits on its link for as
            // long as nothing changes) or has sent what is never acknowledged (15 minutes of
            // retransmissions otherwise; a query's long wait for its answer is not that).
            ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "30000"),
        ]
        if !behindTransactionPooler { pairs.append(("options", sessionOptions)) }
        pairs.append(("dbname", conninfo))
        let handle = withCStringArray(pairs.map(\.0)) { keywords in
            withCStringArray(pairs.map(\.1)) { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let handle else { throw .connection(message: "libpq could not allocate a connection") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = PostgresConnection.errorMessage(handle)
            PQfinish(handle)
            throw .connection(message: message)
        }
        return handle
    }
}

/// Lends strings to C as a NULL-terminated `const char * const *`.
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
            body($0)
        }
    }
}

/// The connection string may hold a password: a log says only whose connection this is.
extension PostgresConnectionSettings: CustomStringConvertible {
    public var description: String { "PostgresConnectionSettings(\(applicationName))" }
}
