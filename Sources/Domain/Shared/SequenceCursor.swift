/// A position in a list ordered by a number the store assigns in order (a stock movement's id),
/// newest first: the last row a page showed, as an opaque token.
public struct SequenceCursor: Hashable, Sendable {
    public let value: Int64

    public init(_ value: Int64) { self.value = value }

    /// `nil` unless `token` is one this type produced.
    public init?(token: String) {
        guard let text = OpaqueToken.decode(token), text.hasPrefix("seq|"), let value = Int64(text.dropFirst(4)), value > 0 else {
            return nil
        }
        self.value = value
    }

    public var token: String { OpaqueToken.encode("seq|\(value)") }
}
