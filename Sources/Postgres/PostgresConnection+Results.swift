import CLibPQ
import Foundation

/// Reading libpq's results into our types: errors into `PostgresError`, rows into `PostgresRow`.
extension PostgresConnection {
    /// Throws the error `result` carries, if any; `nil` means the link itself failed.
    static func check(_ result: OpaquePointer?, _ handle: OpaquePointer) throws(PostgresError) {
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

    /// Whether `result` has these columns' types, in this order (names aside: a statement's
    /// text fixes them).
    static func result(_ result: OpaquePointer, matches columns: PostgresColumns) -> Bool {
        guard Int(PQnfields(result)) == columns.types.count else { return false }
        for (column, type) in columns.types.enumerated() where PQftype(result, Int32(column)) != type.rawValue {
            return false
        }
        return true
    }

    static func columns(of result: OpaquePointer) -> PostgresColumns {
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

    static func read(_ result: OpaquePointer, columns: PostgresColumns) -> PostgresResult {
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
