/// Writes compact JSON into bytes, the way `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` does: the writer of every response body (`JSONBodyEncoder`).
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {
        bytes.reserveCapacity(1024)
    }

    public mutating func beginObject() { bytes.append(UInt8(ascii: "{")) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { bytes.append(UInt8(ascii: "[")) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// `"key":value`, after a comma unless it is its object's first member. `key` is written as
    /// it is: a model's coding key, plain ASCII.
    public mutating func member(_ key: StaticString, _ value: some JSONWritable) throws {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        try value.writeJSON(to: &self)
    }

    /// `"key":`, after a comma unless it is its object's first member; the value comes next.
    public mutating func key(_ key: String) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes the comma before an array's element or an object's member unless it is the first:
    /// a value never ends with `{` or `[`, so the last byte tells.
    public mutating func separate() {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
    }

    /// A number, `true`, `false` or `null`, already in its JSON form.
    public mutating func literal(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A quoted string: `"` and `\` escaped, control characters as `\n`-style or `\u00XX`
    /// escapes; `/`, DEL and everything beyond ASCII as they are.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[start..<index])
                appendEscape(for: byte)
                start = index + 1
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }

    /// A finite number as `JSONEncoder` writes it: the shortest text that reads back as the same
    /// value, with no trailing `.0` (`4`, `4.5`, `1e-07`); `nil` for NaN and the infinities,
    /// which JSON lacks.
    public static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String? {
        guard value.isFinite else { return nil }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
