import Domain
import Foundation
import Postgres

/// The elements of a `json_build_array(...)`, read by position; any value of the wrong kind is a
/// decoding error naming the column. What `json_agg` of such arrays holds: an item's variants and
/// images, an order's lines, refunds, shipments and events.
struct PositionalJSON {
    let values: [JSONValue]
    let column: String

    var invalid: PostgresError { PostgresError.decoding(column: column, swiftType: "element", postgresType: "json") }

    /// The arrays of a JSON array of arrays (`json_agg(json_build_array(...))`).
    static func rows(of json: String, column: String) throws -> [PositionalJSON] {
        guard let list = JSONValue.parse(json)?.array else { throw PositionalJSON(values: [], column: column).invalid }
        return try PositionalJSON(values: list, column: column).elements()
    }

    func value(_ index: Int) -> JSONValue { values.indices.contains(index) ? values[index] : .null }

    /// The values themselves as positional arrays.
    func elements() throws -> [PositionalJSON] {
        try values.map { value in
            guard let array = value.array else { throw invalid }
            return PositionalJSON(values: array, column: column)
        }
    }

    func elements(_ index: Int) throws -> [PositionalJSON] {
        guard let array = value(index).array else { throw invalid }
        return try PositionalJSON(values: array, column: column).elements()
    }

    func string(_ index: Int) throws -> String {
        guard let text = value(index).string else { throw invalid }
        return text
    }

    func uuid(_ index: Int) throws -> UUID {
        guard let id = UUID(text: try string(index)) else { throw invalid }
        return id
    }

    func int64(_ index: Int) throws -> Int64 {
        guard let number = value(index).int64 else { throw invalid }
        return number
    }

    func int(_ index: Int) throws -> Int {
        guard let number = Int(exactly: try int64(index)) else { throw invalid }
        return number
    }

    func currency(_ index: Int) throws -> Currency {
        guard let currency = Currency(try string(index)) else { throw invalid }
        return currency
    }

    func enumeration<T: RawRepresentable>(_ index: Int) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try string(index)) else { throw invalid }
        return value
    }

    func date(_ index: Int) throws -> Date {
        guard let date = Date(postgresText: try string(index), type: .timestamptz) else { throw invalid }
        return date
    }

    func optionalDate(_ index: Int) throws -> Date? {
        value(index).isNull ? nil : try date(index)
    }
}
