/// A JSON value read from a column PostgreSQL filled (`json_agg`, `json_build_array`, `jsonb`
/// text). Foundation's `JSONSerialization` took most of a catalog page's CPU time building
/// `NSArray`s and `NSNumber`s for the variants and images of every item; this reader walks the
/// UTF-8 bytes once and builds Swift values (measured: Benchmarks/README.md).
///
/// It reads RFC 8259 JSON and nothing else: no trailing commas, comments or bare control
/// characters; nesting deeper than `maximumDepth` is refused. Numbers keep their text, so that an
/// integer column reads back exactly (`int64`).
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Deeper than any column of ours; the bound keeps a hostile value from exhausting the stack.
    static let maximumDepth = 64

    /// The value `text` holds, or `nil` when it is not one JSON value.
    static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.index == bytes.count ? value : nil
        }
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A number written as an integer that fits 64 bits; `nil` for `1.5`, `1e3` or anything else.
    var int64: Int64? {
        if case .number(let text) = self { return Int64(text) }
        return nil
    }

    var isNull: Bool { self == .null }
}

private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard depth < JSONValue.maximumDepth else { return nil }
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return .array(elements) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(depth: depth + 1) else { return nil }
            // As JSONSerialization and PostgreSQL's jsonb do, the last of duplicate names wins.
            members[name] = member
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { return .object(members) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
    private mutating func number() -> JSONValue? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            skipDigits()
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// A string from its opening quote; the text is copied once when it has no escapes.
    private mutating func string() -> String? {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return validUTF8(start..<index)
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            if byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    private func validUTF8(_ range: Range<Int>) -> String? {
        String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private mutating func escapedString(from start: Int) -> String? {
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    decoded.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                decoded.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (the `\u` read), a surrogate pair taken together; `nil` for a lone
    /// surrogate, which is no character.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let unit = hexQuad() else { return nil }
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00...0xDFFF: return nil
        default: return Unicode.Scalar(unit)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
