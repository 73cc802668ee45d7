// swift-tools-version:6.1
import PackageDescription

/// swift-openapi-generator, pinned, as a command for `Tools/generate-client`: a package of its own,
/// so the service's package neither resolves nor builds it. Its dependencies are pinned too, each
/// to one version (no Package.resolved is kept in git): another OpenAPIKit or Yams could generate
/// other code from the same document, and `--check` must compare like with like.
let package = Package(
    name: "openapi-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", exact: "6.4.0"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-algorithms.git", exact: "1.2.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics.git", exact: "1.1.1"),
    ],
    targets: []
)
