// once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixMinimal.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

@testable import LiveScenes

/// The production implementations of the MatrixMinimal scene's hand-written ports.
extension MatrixMinimalContainer {
    /// The `source` port: a fixed title (the matrix tests the wiring, not a source).
    static func liveSource(_ resources: AppResources) -> any BoardSource {
        FixedBoardSource(fixed: "Matrix minimal")
    }

    /// The optional `mirror` port: none, as a feature off by configuration.
    static func liveMirror(_ resources: AppResources) -> (any BoardSource)? {
        nil
    }

    /// The `cap` value port: a fixed number.
    static func liveCap(_ resources: AppResources) -> Int {
        1
    }
}
