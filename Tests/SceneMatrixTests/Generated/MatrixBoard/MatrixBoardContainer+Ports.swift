// once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixBoard.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

@testable import LiveScenes

/// The production implementations of the MatrixBoard scene's hand-written ports.
extension MatrixBoardContainer {
    /// The `source` port: a fixed title (the matrix tests the wiring, not a source).
    static func liveSource(_ resources: AppResources) -> any BoardSource {
        FixedBoardSource(fixed: "Matrix board")
    }

    /// The `page_cap` value port: a fixed cap.
    static func livePageCap(_ resources: AppResources) -> Int {
        20
    }

    /// The optional `mirror` port: none, as a feature off by configuration.
    static func liveMirror(_ resources: AppResources) -> (any BoardSource)? {
        nil
    }
}
