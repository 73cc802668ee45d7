/// What the server said about a failed statement, as libpq's diagnostic fields report it.
public struct PostgresErrorInfo: Sendable, Equatable, CustomStringConvertible {
    /// Five-character SQLSTATE, e.g. `23505`.
    public let sqlState: String
    public let message: String
    public let detail: String?
    /// The constraint that was violated, when the server names one (`items_sku_key`).
    public let constraint: String?
    public let table: String?
    public let column: String?

    public init(
        sqlState: String, message: String, detail: String? = nil,
        constraint: String? = nil, table: String? = nil, column: String? = nil
    ) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
        self.table = table
        self.column = column
    }

    public var description: String {
        var text = "\(message) (SQLSTATE \(sqlState))"
        if let constraint { text += " [constraint \(constraint)]" }
        return text
    }
}

/// Every failure the Postgres module reports. Server errors are sorted by SQLSTATE into the cases
/// gateways need to turn into domain errors; everything else stays in `.server`.
public enum PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached or the connection broke; carries libpq's own text.
    case connection(message: String)
    /// No connection became free before the pool's acquire deadline.
    case poolTimeout(waitedMilliseconds: Int)
    /// The pool was shut down.
    case poolShutdown
    /// SQLSTATE 23505.
    case uniqueViolation(PostgresErrorInfo)
    /// SQLSTATE 23503.
    case foreignKeyViolation(PostgresErrorInfo)
    /// SQLSTATE 23514.
    case checkViolation(PostgresErrorInfo)
    /// SQLSTATE 23502.
    case notNullViolation(PostgresErrorInfo)
    /// SQLSTATE 40001; `withTransaction` retries these.
    case serializationFailure(PostgresErrorInfo)
    /// SQLSTATE 40P01; `withTransaction` retries these.
    case deadlockDetected(PostgresErrorInfo)
    /// SQLSTATE 57014: statement timeout or cancel request.
    case queryCanceled(PostgresErrorInfo)
    /// SQLSTATE 55P03: a lock not granted within `lock_timeout`.
    case lockNotAvailable(PostgresErrorInfo)
    /// A prepared statement's result columns changed under it (a migration) inside a transaction,
    /// which its refusal aborted; it is prepared anew, so `withTransaction` retries these.
    case statementChanged(PostgresErrorInfo)
    /// Any other server error.
    case server(PostgresErrorInfo)
    /// A column's value could not become the requested Swift type.
    case decoding(column: String, swiftType: String, postgresType: String)
    /// A NULL was read into a non-optional Swift type.
    case unexpectedNull(column: String, swiftType: String)
    /// The result has no column of that name.
    case noSuchColumn(String)
    /// Parameter `$n` holds U+0000, which PostgreSQL's text cannot: sent as a C string it would be
    /// cut short there, so the statement is not sent at all.
    case nulInParameter(Int)
    /// Parameter `$n` is longer than the 1 GiB PostgreSQL allows a value, so it is not sent.
    case parameterTooLong(Int)

    /// Sorts a server error by its SQLSTATE class and code.
    public static func from(_ info: PostgresErrorInfo) -> PostgresError {
        switch info.sqlState {
        case "23505": return .uniqueViolation(info)
        case "23503": return .foreignKeyViolation(info)
        case "23514": return .checkViolation(info)
        case "23502": return .notNullViolation(info)
        case "40001": return .serializationFailure(info)
        case "40P01": return .deadlockDetected(info)
        case "57014": return .queryCanceled(info)
        case "55P03": return .lockNotAvailable(info)
        // Class 08 (connection exception) and the shutdown codes mean the connection is gone.
        case "57P01", "57P02", "57P03":
            return .connection(message: info.message)
        case let code where code.hasPrefix("08"):
            return .connection(message: info.message)
        default: return .server(info)
        }
    }

    /// The server's diagnostic fields, for the cases that carry them.
    public var info: PostgresErrorInfo? {
        switch self {
        case .uniqueViolation(let info), .foreignKeyViolation(let info), .checkViolation(let info),
            .notNullViolation(let info), .serializationFailure(let info), .deadlockDetected(let info),
            .queryCanceled(let info), .lockNotAvailable(let info), .statementChanged(let info), .server(let info):
            return info
        default:
            return nil
        }
    }

    /// The violated constraint's name, when there is one.
    public var constraint: String? { info?.constraint }

    /// True when the database is unreachable or overloaded rather than the statement wrong (a
    /// statement or lock wait past its deadline included, and a conflict with other work that
    /// outlived a transaction's retries or came outside one): callers answer "try again later"
    /// (503) instead of blaming the request.
    public var isUnavailable: Bool {
        switch self {
        case .connection, .poolTimeout, .poolShutdown, .queryCanceled, .lockNotAvailable, .serializationFailure, .deadlockDetected,
            .statementChanged:
            return true
        default: return false
        }
    }

    /// True for the failures a transaction may simply run again.
    public var isRetryableInTransaction: Bool {
        switch self {
        case .serializationFailure, .deadlockDetected, .statementChanged: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .connection(let message): return "PostgreSQL connection failed: \(message)"
        case .poolTimeout(let ms): return "no PostgreSQL connection became free within \(ms) ms"
        case .poolShutdown: return "the PostgreSQL pool is shut down"
        case .decoding(let column, let swiftType, let postgresType):
            return "column \"\(column)\" of type \(postgresType) cannot be decoded as \(swiftType)"
        case .unexpectedNull(let column, let swiftType):
            return "column \"\(column)\" is NULL but \(swiftType) is not optional"
        case .noSuchColumn(let name): return "the result has no column \"\(name)\""
        case .nulInParameter(let number): return "parameter $\(number) contains U+0000, which PostgreSQL text cannot hold"
        case .parameterTooLong(let number): return "parameter $\(number) is longer than the 1 GiB PostgreSQL allows a value"
        default: return info.map(\.description) ?? "PostgreSQL error"
        }
    }
}
