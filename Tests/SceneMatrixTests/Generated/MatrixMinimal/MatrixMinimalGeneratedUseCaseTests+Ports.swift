// once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixMinimal.yml; yours to edit: scenegen never rewrites it.
import Domain
import MockSupport

/// The MatrixMinimal scene's hand-written ports as its generated use-case tests hold them.
/// Those tests call the CRUD use cases alone, which never use the ports: give each a
/// stand-in (a mock that fails on any call, as Tests/MockSupport's do, or a fixed value).
extension MatrixMinimalGeneratedUseCaseTests {
    static var source: any BoardSource {
        FixedBoardSource(fixed: "unused by the CRUD use cases")
    }

    static var mirror: (any BoardSource)? {
        nil
    }

    static var cap: Int {
        1
    }
}
