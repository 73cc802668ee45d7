import Foundation
import Translator

/// Encodes response models to JSON, byte for byte as `JSONEncoder` does with `.sortedKeys` and
/// `.withoutEscapingSlashes`, in a fraction of its time: Foundation's encoder was a third of the
/// server's CPU time on a page of 20 items (measured: see `Benchmarks/README.md`).
///
/// A value that writes itself (`JSONWritable`: every model scenegen makes) is written directly.
/// Any other value goes through `Encodable` into a small tree (members are sorted when written, so
/// the container a model asked for is all the state it needs), with no dynamic casts on the way:
/// the container methods for strings, numbers and booleans are called directly, and generic
/// values of those types are recognised by their type. It is for response models: `Data`, `URL`
/// and `Decimal`, which Foundation's encoder writes in its own way, are refused (write them as
/// strings).
public enum JSONBodyEncoder {
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a refused type.
    public static func encode(_ value: some Encodable) throws -> Data {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter()
            // On failure the tree path throws the same error with the value's coding path.
            if (try? writable.writeJSON(to: &writer)) != nil { return Data(writer.bytes) }
        }
        return try encodeThroughTree(value)
    }

    /// The `Encodable` path alone (tests compare it with a model's `JSONWritable` one).
    public static func encodeThroughTree(_ value: some Encodable) throws -> Data {
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

extension JSONWriter {
    mutating func write(_ node: JSONNode) {
        switch node {
        case .null: literal("null")
        case .bool(let value): literal(value ? "true" : "false")
        case .number(let text): literal(text)
        case .string(let value): string(value)
        case .encoder(let encoder): write(encoder.result)
        case .array(let array):
            beginArray()
            for element in array.elements {
                separate()
                write(element)
            }
            endArray()
        case .object(let object):
            beginObject()
            let members = object.members
            for index in Self.sortedIndices(of: members) {
                key(members[index].key)
                write(members[index].value)
            }
            endObject()
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
}
