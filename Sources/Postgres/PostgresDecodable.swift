import Foundation

/// A Swift type a result column can be decoded into. Results arrive in PostgreSQL's text format;
/// `acceptedTypes` is checked first so that a mismatch names both types instead of guessing.
public protocol PostgresDecodable: Sendable {
    /// Whether a column of this server type may be decoded into `Self`.
    static func accepts(_ type: PostgresType) -> Bool
    /// Parses the column's text form; `nil` when the text is not a valid value.
    init?(postgresText text: String, type: PostgresType)
}

extension String: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool {
        switch type {
        case .text, .varchar, .bpchar, .name, .char, .json, .jsonb, .uuid: return true
        default: return type.rawValue >= PostgresType.firstUserDefined
        }
    }
    public init?(postgresText text: String, type: PostgresType) { self = text }
}

extension Int: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool {
        type == .int2 || type == .int4 || type == .int8 || type == .oid
    }
    public init?(postgresText text: String, type: PostgresType) { self.init(text) }
}

extension Int64: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool {
        type == .int2 || type == .int4 || type == .int8 || type == .oid
    }
    public init?(postgresText text: String, type: PostgresType) { self.init(text) }
}

extension Int32: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool { type == .int2 || type == .int4 }
    public init?(postgresText text: String, type: PostgresType) { self.init(text) }
}

extension Bool: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool { type == .bool }
    public init?(postgresText text: String, type: PostgresType) {
        switch text {
        case "t": self = true
        case "f": self = false
        default: return nil
        }
    }
}

extension Double: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool {
        type == .float4 || type == .float8 || type == .numeric
    }
    public init?(postgresText text: String, type: PostgresType) { self.init(text) }
}

extension UUID: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool { type == .uuid }
    public init?(postgresText text: String, type: PostgresType) { self.init(uuidString: text) }
}

extension Date: PostgresDecodable {
    public static func accepts(_ type: PostgresType) -> Bool {
        type == .timestamptz || type == .timestamp || type == .date
    }
    public init?(postgresText text: String, type: PostgresType) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension Array: PostgresDecodable where Element == UInt8 {
    public static func accepts(_ type: PostgresType) -> Bool { type == .bytea }
    /// Reads bytea's hex output format (`\x0a1b...`), the server default since 9.0.
    public init?(postgresText text: String, type: PostgresType) {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"),
            utf8.count % 2 == 0
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }

    private static func nibble(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ascii - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ascii - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return ascii - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
