import Foundation
import Translator

extension JSONNode {
    /// The node of any encodable value. Strings, integers, booleans and doubles reached through
    /// generic code (the elements of an array, a model's members) are recognised by their type,
    /// not cast to; everything else encodes itself through a `NodeEncoder`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a refused type.
    init<T: Encodable>(encoding value: T, at path: CodingPathNode) throws {
        // Comparing metatypes is a pointer comparison; `as?` would be a runtime cast per value.
        if T.self == String.self {
            self = .string(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            self = .number(String(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Int64.self {
            self = .number(String(unsafeBitCast(value, to: Int64.self)))
        } else if T.self == Bool.self {
            self = .bool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            self = try .number(unsafeBitCast(value, to: Double.self), at: path)
        } else if T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path.keys, debugDescription: "\(T.self) is not a response type: encode it as a string."))
        } else {
            let encoder = NodeEncoder(path: path)
            try value.encode(to: encoder)
            self = encoder.result
        }
    }

    /// A number as `JSONEncoder` writes it (`JSONWriter.number`).
    /// - Throws: `EncodingError.invalidValue` for NaN and the infinities, which JSON lacks.
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, at path: CodingPathNode) throws -> JSONNode {
        guard let text = JSONWriter.number(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path.keys, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        return .number(text)
    }
}

/// Where a value sits, for error messages only: a chain from the root, made into an array when
/// an error or a model asks for it.
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, parent: CodingPathNode)

    var keys: [any CodingKey] {
        switch self {
        case .root: []
        case .key(let key, let parent): parent.keys + [key]
        }
    }

    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, parent: self) }
}

/// The `Encoder` a model's `encode(to:)` is given: it keeps the one container the model asks for.
final class NodeEncoder: Encoder {
    let path: CodingPathNode
    private var node: JSONNode?

    init(path: CodingPathNode) {
        self.path = path
    }

    /// What the model encoded; an empty object if it asked for no container, as `JSONEncoder` writes.
    var result: JSONNode { node ?? .object(JSONObject()) }
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let object) = node { return KeyedEncodingContainer(ObjectContainer(object: object, path: path)) }
        let object = JSONObject()
        node = .object(object)
        return KeyedEncodingContainer(ObjectContainer(object: object, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array) = node { return ArrayContainer(array: array, path: path) }
        let array = JSONArray()
        node = .array(array)
        return ArrayContainer(array: array, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueContainer(encoder: self)
    }

    fileprivate func set(_ value: JSONNode) {
        node = value
    }
}

/// The members of an object.
private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONObject
    let path: CodingPathNode
    var codingPath: [any CodingKey] { path.keys }

    private func add(_ value: JSONNode, _ key: Key) { object.members.append((key.stringValue, value)) }

    mutating func encodeNil(forKey key: Key) throws { add(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(try .number(value, at: path.appending(key)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(try .number(value, at: path.appending(key)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.number(String(value)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(try JSONNode(encoding: value, at: path.appending(key)), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObject()
        add(.object(nested), key)
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(object: nested, path: path.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        add(.array(nested), key)
        return ArrayContainer(array: nested, path: path.appending(key))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: SuperKey.super) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let encoder = NodeEncoder(path: path.appending(key))
        object.members.append((key.stringValue, .encoder(encoder)))
        return encoder
    }
}

/// The elements of an array.
private struct ArrayContainer: UnkeyedEncodingContainer {
    let array: JSONArray
    let path: CodingPathNode
    var codingPath: [any CodingKey] { path.keys }
    var count: Int { array.elements.count }

    private func add(_ value: JSONNode) { array.elements.append(value) }
    private var nextPath: CodingPathNode { path.appending(IndexKey(intValue: count)) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(try .number(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { add(try .number(value, at: nextPath)) }
    mutating func encode(_ value: Int) throws { add(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { add(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { add(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { add(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { add(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { add(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { add(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { add(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { add(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { add(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { add(try JSONNode(encoding: value, at: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObject()
        let nestedPath = nextPath
        add(.object(nested))
        return KeyedEncodingContainer(ObjectContainer<NestedKey>(object: nested, path: nestedPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONArray()
        let nestedPath = nextPath
        add(.array(nested))
        return ArrayContainer(array: nested, path: nestedPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = NodeEncoder(path: nextPath)
        add(.encoder(encoder))
        return encoder
    }
}

/// A single value: what the encoder it came from will hold.
private struct ValueContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.set(.null) }
    mutating func encode(_ value: Bool) throws { encoder.set(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.set(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.set(try .number(value, at: encoder.path)) }
    mutating func encode(_ value: Float) throws { encoder.set(try .number(value, at: encoder.path)) }
    mutating func encode(_ value: Int) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.set(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.set(try JSONNode(encoding: value, at: encoder.path)) }
}

/// `super`, the key of a keyed container's `superEncoder()`.
private enum SuperKey: String, CodingKey {
    case `super`
}

/// An array element's position in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
