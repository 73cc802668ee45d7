// swift-tools-version:6.1
import PackageDescription

/// swift-openapi-generator, pinned, as a command for `Tools/generate-client`: a package of its own,
/// so the service's package neither resolves nor builds it.
let package = Package(
    name: "openapi-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")
    ],
    targets: []
)
