/// A response model that writes itself as JSON, members in key order, without the value tree
/// the `Encodable` path builds (`JSONBodyEncoder` takes this path when it can). scenegen writes
/// the conformance of every model it generates beside its `encode(to:)`: both give the same
/// bytes (`JSONBodyEncoderTests`). On an item lookup the tree was most of the response's cost.
public protocol JSONWritable {
    /// - Throws: `EncodingError.invalidValue` for a number JSON cannot hold.
    func writeJSON(to writer: inout JSONWriter) throws
}

extension String: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.string(self) }
}

extension Int: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.literal(String(self)) }
}

extension Int64: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.literal(String(self)) }
}

extension Bool: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.literal(self ? "true" : "false") }
}

extension Double: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) throws {
        guard let text = JSONWriter.number(self) else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: [], debugDescription: "Unable to encode Double.\(self) directly in JSON."))
        }
        writer.literal(text)
    }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) throws {
        if let self { try self.writeJSON(to: &writer) } else { writer.literal("null") }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) throws {
        writer.beginArray()
        for element in self {
            writer.separate()
            try element.writeJSON(to: &writer)
        }
        writer.endArray()
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    /// Members in the order of their keys, as `.sortedKeys` writes them.
    public func writeJSON(to writer: inout JSONWriter) throws {
        writer.beginObject()
        for key in keys.sorted() {
            writer.key(key)
            try self[key]!.writeJSON(to: &writer)
        }
        writer.endObject()
    }
}
