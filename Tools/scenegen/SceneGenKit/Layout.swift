/// Where a set of specs and the files they produce live. The product's scenes spread over one
/// module per layer; the generator's matrix of specs (`Tests/SceneMatrixTests`) puts each scene's
/// files in one folder of one test module, so the whole output of every renderer is compiled and
/// its generated tests run by `swift test`, without adding a scene to the product.
public struct Layout: Hashable, Sendable {
    /// The layer a generated file belongs to.
    enum Layer: Hashable, Sendable {
        case domain, useCase, translator, presenter, gateway, scenes, live, http, useCaseTests, httpTests

        /// The product module of the layer; tests have none.
        var module: String? {
            switch self {
            case .domain: "Domain"
            case .useCase: "UseCase"
            case .translator: "Translator"
            case .presenter: "Presenter"
            case .gateway: "Gateway"
            case .scenes: "Scenes"
            case .live: "LiveScenes"
            case .http: "HTTP"
            case .useCaseTests, .httpTests: nil
            }
        }
    }

    /// The folder of the specs, relative to the repository root.
    public let specs: String
    /// The folder of the migrations the specs' tables are created in.
    public let migrations: String
    /// The folder of every scene's files, or `nil` for the product's one folder per layer.
    let sceneRoot: String?
    /// The route registry of every scene.
    let registry: String
    /// Whether the specs' operations make the served OpenAPI document.
    let servesOpenAPI: Bool
    /// The folder whose Swift files declare the hand-written enums an `enum_type` may name.
    let domainSources: String

    /// `Specs/*.yml` -> `Sources/<Layer>/<Scene>/`, `Tests/UseCaseTests/Generated/`,
    /// `Tests/HTTPTests/Generated/`, `Migrations/`.
    public static let product = Layout(
        specs: "Specs", migrations: "Migrations", sceneRoot: nil, registry: "Sources/HTTP/App/SceneRegistry.swift",
        servesOpenAPI: true, domainSources: "Sources/Domain")

    /// `Tests/SceneMatrixTests/Specs/*.yml` -> `Tests/SceneMatrixTests/Generated/<Scene>/`.
    public static let matrix = Layout(
        specs: "Tests/SceneMatrixTests/Specs", migrations: "Tests/SceneMatrixTests/Migrations",
        sceneRoot: "Tests/SceneMatrixTests/Generated", registry: "Tests/SceneMatrixTests/Generated/SceneRegistry.swift",
        servesOpenAPI: false, domainSources: "Tests/SceneMatrixTests")

    public static let all = [product, matrix]

    /// Every folder this layout writes generated files to (where stale ones are looked for).
    var generatedFolders: [String] {
        if let sceneRoot { return [sceneRoot] }
        return ["Sources", "Tests/UseCaseTests/Generated", "Tests/HTTPTests/Generated"]
    }

    /// The path of a scene's file in `layer`.
    func path(_ layer: Layer, scene: String, file: String) -> String {
        if let sceneRoot { return "\(sceneRoot)/\(scene)/\(file)" }
        switch layer {
        case .domain: return "Sources/Domain/\(scene)/\(file)"
        case .useCase: return "Sources/UseCase/\(scene)/\(file)"
        case .translator: return "Sources/Translator/\(scene)/\(file)"
        case .presenter: return "Sources/Presenter/\(scene)/\(file)"
        case .gateway: return "Sources/Gateway/\(scene)/\(file)"
        case .scenes: return "Sources/Scenes/\(scene)/\(file)"
        case .live: return "Sources/LiveScenes/\(scene)/\(file)"
        case .http: return "Sources/HTTP/\(scene)/\(file)"
        case .useCaseTests: return "Tests/UseCaseTests/Generated/\(file)"
        case .httpTests: return "Tests/HTTPTests/Generated/\(file)"
        }
    }

    /// Where a test file of the user's beside the generated ones lives: the test module's own
    /// folder (not `Generated`), or the scene's folder in the matrix.
    func ownedTestPath(_ layer: Layer, scene: String, file: String) -> String {
        let generated = path(layer, scene: scene, file: file)
        guard sceneRoot == nil else { return generated }
        return generated.replacingOccurrences(of: "/Generated/", with: "/")
    }

    /// Imports a file needs beyond what its renderer writes: in the matrix's single test module,
    /// each layer's module, internals included (`SceneRouters`, `translatingUnavailable`), is
    /// reached as a test reaches it.
    func extraImports(_ layer: Layer) -> String {
        guard sceneRoot != nil, let module = layer.module else { return "" }
        return "@testable import \(module)\n"
    }

    /// The list of the tables customers own, which an account's deletion empties of its rows
    /// (the product's only: the matrix deletes no account).
    var customerOwnedTables: String? { sceneRoot == nil ? "Sources/Gateway/Shared/CustomerOwnedTables.swift" : nil }

    /// Whether a custom use case's logic is a once-file the user owns. In the matrix it is
    /// regenerated like everything else, so it always shows what the renderer makes today.
    var customLogicIsOnce: Bool { sceneRoot == nil }
}

/// Tables no spec entity describes that a spec's fields may still reference: `customers` (the
/// customers the tests sign in) and the tables of scenes kept through hand-written stores,
/// whose rows the test support makes (`Tests/TestSupport/TestRows.swift`).
enum KnownTables {
    /// Each hand-kept table's row maker, called as `<maker>(db, customerID:)`.
    static let rowMakers = ["items": "TestRows.insertItem", "reviews": "TestRows.insertReview"]
    static let names = ["customers"] + rowMakers.keys.sorted()
}
