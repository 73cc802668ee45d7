import Foundation

/// Encodes response models to JSON, byte for byte as `JSONEncoder` does with `.sortedKeys` and
/// `.withoutEscapingSlashes`, in a fraction of its time: Foundation's encoder was a third of the
/// server's CPU time on a page of 20 items (measured: see `Benchmarks/README.md`).
///
/// It builds a small tree of the values (members are sorted when written, so the container a
/// model asked for is all the state it needs), with no dynamic casts on the way: the container
/// methods for strings, numbers and booleans are called directly, and generic values of those
/// types are recognised by their type. It is for response models: `Data`, `URL` and `Decimal`,
/// which Foundation's encoder writes in its own way, are refused (write them as strings).
public enum JSONBodyEncoder {
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a refused type.
    public static func encode(_ value: some Encodable) throws -> Data {
        var writer = JSONWriter()
        writer.write(try JSONNode(encoding: value, at: .root))
        return Data(writer.bytes)
    }
}

/// A JSON value being built. Objects and arrays are references: a model fills the container it
/// got back after the call that made it has returned.
enum JSONNode {
    case null
    case bool(Bool)
    /// Already in its JSON form (`42`, `4.5`, `1e-07`).
    case number(String)
    case string(String)
    case object(JSONObject)
    case array(JSONArray)
    /// Whatever a `superEncoder` was given, read when written.
    case encoder(NodeEncoder)
}

final class JSONObject {
    var members: [(key: String, value: JSONNode)] = []
}

final class JSONArray {
    var elements: [JSONNode] = []
}

/// Writes a tree as compact JSON.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1024)
    }

    mutating func write(_ node: JSONNode) {
        switch node {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let value): write(value)
        case .encoder(let encoder): write(encoder.result)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for index in array.elements.indices {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(array.elements[index])
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            let members = object.members
            var first = true
            for index in Self.sortedIndices(of: members) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(members[index].key)
                bytes.append(UInt8(ascii: ":"))
                write(members[index].value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The members' positions in the order of their keys (`.sortedKeys`: "10" before "9", "Z"
    /// before "a": for the normalized keys models have, Swift's `<` on strings is the order of
    /// their UTF-8 bytes); of a key given twice only the last, as a dictionary would keep it.
    private static func sortedIndices(of members: [(key: String, value: JSONNode)]) -> [Int] {
        var order = Array(members.indices)
        if !zip(members, members.dropFirst()).allSatisfy({ $0.key < $1.key }) {
            // Stable: of equal keys the later stays later.
            order.sort { members[$0].key == members[$1].key ? $0 < $1 : members[$0].key < members[$1].key }
        }
        if order.count > 1 {
            order = order.indices.compactMap { position in
                position + 1 < order.count && members[order[position + 1]].key == members[order[position]].key ? nil : order[position]
            }
        }
        return order
    }

    /// A quoted string: `"` and `\` escaped, control characters as `\n`-style or `\u00XX`
    /// escapes; `/`, DEL and everything beyond ASCII as they are.
    private mutating func write(_ value: String) {
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
}
