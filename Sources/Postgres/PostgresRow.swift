/// The column names and types of one result, shared by all of its rows.
public final class PostgresColumns: Sendable {
    public let names: [String]
    public let types: [PostgresType]
    private let indexByName: [String: Int]

    init(names: [String], types: [PostgresType]) {
        self.names = names
        self.types = types
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil {
            index[name] = position
        }
        self.indexByName = index
    }

    @usableFromInline
    func index(of name: String) throws(PostgresError) -> Int {
        guard let index = indexByName[name] else { throw .noSuchColumn(name) }
        return index
    }
}

/// One row of a result, decoded by column name. The decoders are `@inlinable` so that each
/// caller's module specializes them for its types: unspecialized, every call instantiated
/// `Optional<T>`'s metadata at run time (some 5 % of a catalog page's CPU).
public struct PostgresRow: Sendable {
    public let columns: PostgresColumns
    /// Each column's text form; `nil` is SQL NULL.
    @usableFromInline let values: [String?]

    init(columns: PostgresColumns, values: [String?]) {
        self.columns = columns
        self.values = values
    }

    /// Decodes a non-NULL column.
    /// - Throws: `PostgresError.noSuchColumn`, `.unexpectedNull`, or `.decoding` naming the column,
    ///   the Swift type and the column's PostgreSQL type.
    @inlinable
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = try decode(column, as: T?.self) else {
            throw PostgresError.unexpectedNull(column: column, swiftType: "\(T.self)")
        }
        return value
    }

    /// Decodes a column that may be NULL.
    /// - Throws: `PostgresError.noSuchColumn` or `.decoding` naming both types.
    @inlinable
    public func decode<T: PostgresDecodable>(_ column: String, as type: T?.Type = T?.self) throws -> T? {
        let index = try columns.index(of: column)
        let pgType = columns.types[index]
        guard T.accepts(pgType) else {
            throw PostgresError.decoding(column: column, swiftType: "\(T.self)", postgresType: "\(pgType)")
        }
        guard let text = values[index] else { return nil }
        guard let value = T(postgresText: text, type: pgType) else {
            throw PostgresError.decoding(column: column, swiftType: "\(T.self)", postgresType: "\(pgType)")
        }
        return value
    }
}

/// What a statement produced: its rows (possibly none) and the affected-row count.
public struct PostgresResult: Sendable {
    public let rows: [PostgresRow]
    /// `PQcmdTuples`: rows inserted, updated, deleted or selected.
    public let affectedRows: Int
}
