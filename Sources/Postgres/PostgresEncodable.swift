import Foundation

/// A Swift value that can be bound to a `$n` parameter. Parameters travel in PostgreSQL's text
/// format unless a value gives its binary form, and the server infers their types from the
/// statement, so a value only says how it is written; `nil` text is SQL NULL.
public protocol PostgresEncodable: Sendable {
    var postgresText: String? { get }
    /// The value in PostgreSQL's binary format, sent instead of `postgresText` when not `nil`.
    var postgresBinary: [UInt8]? { get }
}

extension PostgresEncodable {
    public var postgresBinary: [UInt8]? { nil }
}

extension String: PostgresEncodable {
    public var postgresText: String? { self }
}

extension Int: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Bool: PostgresEncodable {
    public var postgresText: String? { self ? "t" : "f" }
}

extension Double: PostgresEncodable {
    /// Swift's shortest round-tripping form, which PostgreSQL parses back to the same double.
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self > 0 ? "Infinity" : "-Infinity" }
        return "\(self)"
    }
}

extension UUID: PostgresEncodable {
    public var postgresText: String? { uuidString }
}

extension Date: PostgresEncodable {
    /// RFC 3339 in UTC with microseconds, PostgreSQL's own precision.
    public var postgresText: String? { PostgresTimestamp.format(self) }
}

extension Array: PostgresEncodable where Element == UInt8 {
    /// bytea travels as its bytes: the hex text was twice their size, and copied three times on
    /// its way to libpq (a resumable upload's 256 KiB piece cost some 2 MiB of transient memory).
    public var postgresBinary: [UInt8]? { self }

    /// bytea's hex format: `\x` followed by two hex digits a byte.
    public var postgresText: String? {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        out.reserveCapacity(2 + count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresText: String? {
        switch self {
        case .none: return nil
        case .some(let value): return value.postgresText
        }
    }

    public var postgresBinary: [UInt8]? { self?.postgresBinary }
}

/// A `uuid[]` parameter (`WHERE id = ANY($1::uuid[])`): one statement for any number of ids.
/// Its own type because `[UInt8]` is already `bytea`.
public struct PostgresUUIDArray: PostgresEncodable {
    public let ids: [UUID]

    public init(_ ids: [UUID]) { self.ids = ids }

    /// The array literal `{id,id,...}`; a UUID's text needs no quoting.
    public var postgresText: String? { "{" + ids.map(\.uuidString).joined(separator: ",") + "}" }
}

/// A `text[]` parameter (`WHERE sku = ANY($1::text[])`), every element quoted, so any text
/// (commas, braces, quotes, backslashes, `NULL`) arrives as itself.
public struct PostgresTextArray: PostgresEncodable {
    public let values: [String]

    public init(_ values: [String]) { self.values = values }

    /// The array literal `{"a","b\"c"}`: inside double quotes only `"` and `\` are escaped.
    public var postgresText: String? {
        let quoted = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}

/// A `bigint[]` parameter (`width_bucket(price, $1::bigint[])`).
public struct PostgresInt64Array: PostgresEncodable {
    public let values: [Int64]

    public init(_ values: [Int64]) { self.values = values }

    public var postgresText: String? { "{" + values.map(String.init).joined(separator: ",") + "}" }
}
