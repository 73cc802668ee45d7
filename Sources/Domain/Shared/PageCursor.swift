import Foundation

/// A position in a list ordered newest first by `(created_at, id)`: the last row a page showed.
/// Keyset pagination from it is stable when rows are inserted meanwhile. Clients see it as an
/// opaque URL-safe token.
public struct PageCursor: Hashable, Sendable {
    /// Microseconds since 1970, PostgreSQL's timestamp precision, so the position is exact.
    /// Always within `validMicros`.
    public let createdAtMicros: Int64
    public let id: UUID

    /// The instants a cursor may name: 0001-01-01T00:00:00Z up to (not including)
    /// 10000-01-01T00:00:00Z. PostgreSQL holds all of them, `Date` converts them without trapping,
    /// and every row this service writes is stamped inside them. A token naming anything else was
    /// not issued here.
    public static let validMicros: Range<Int64> = -62_135_596_800_000_000..<253_402_300_800_000_000

    /// A cursor after the row stamped `createdAt`; an instant outside `validMicros` is clamped
    /// into it (no row of ours is stamped there, and converting it must not trap).
    public init(createdAt: Date, id: UUID) {
        let micros = (createdAt.timeIntervalSince1970 * 1_000_000).rounded()
        let bounds = Self.validMicros
        if micros.isNaN || micros < Double(bounds.lowerBound) {
            self.createdAtMicros = bounds.lowerBound
        } else if micros >= Double(bounds.upperBound) {
            self.createdAtMicros = bounds.upperBound - 1
        } else {
            self.createdAtMicros = Int64(micros)
        }
        self.id = id
    }

    public var createdAt: Date { Date(timeIntervalSince1970: Double(createdAtMicros) / 1_000_000) }

    /// `nil` unless `token` is one this type produced: base64 of `micros|uuid`, with `micros`
    /// inside `validMicros`.
    public init?(token: String) {
        guard let text = OpaqueToken.decode(token) else { return nil }
        let parts = text.split(separator: "|")
        guard parts.count == 2, let micros = Int64(parts[0]), Self.validMicros.contains(micros),
            let id = UUID(text: String(parts[1]))
        else {
            return nil
        }
        self.createdAtMicros = micros
        self.id = id
    }

    public var token: String { OpaqueToken.encode("\(createdAtMicros)|\(id.lowercasedText)") }
}
