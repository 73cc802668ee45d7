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
