import Domain

/// The hand-written port of the matrix's scene without an entity (`MatrixBoard.yml`): where a
/// board's title comes from.
public protocol BoardSource: Sendable {
    /// The board's title.
    func title() async throws -> String
}

/// The one `BoardSource` the matrix wires (`MatrixBoardContainer+Ports.swift`).
struct FixedBoardSource: BoardSource {
    let fixed: String

    func title() async throws -> String { fixed }
}

/// The Swift type of the enum fields that say `enum_type: BoardMood` (no enum is generated for
/// them).
public enum BoardMood: String, Hashable, Sendable { case calm, loud }

/// A model whose Domain type is hand-written (`domain: handwritten` in `MatrixBoard.yml`): it
/// holds more than answers show (`author`), and its enum member is a type of its own.
public struct BoardNote: Hashable, Sendable {
    public enum Mood: String, Hashable, Sendable { case calm, loud }

    public let text: String
    public let mood: Mood
    /// Kept, never shown.
    public let author: String
    /// Shown as `headline` (`from: shout`).
    public var shout: String { text.uppercased() }
}
