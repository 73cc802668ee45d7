// swift-tools-version:6.1
import PackageDescription

/// Every target of ours compiles in Swift 6 mode with existential `any` spelled out.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Storefront",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "storefront", targets: ["storefront"]),
        .executable(name: "scenegen", targets: ["scenegen"]),
        // What a shopping app adds: the API's types and a client for them, generated from the
        // document the service serves (Tools/generate-client); the app picks the transport.
        .library(name: "StorefrontClient", targets: ["StorefrontClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
    ],
    targets: [
        // MARK: infrastructure
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(name: "CLinux"),
        .target(name: "Postgres", dependencies: ["CLibPQ", "CLinux"], swiftSettings: strict),
        // Generated code (committed) and the middleware that signs it in; nothing of ours.
        .target(
            name: "StorefrontClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),

        // MARK: the scene layers, innermost first
        .target(name: "Domain", swiftSettings: strict),
        .target(name: "UseCase", dependencies: ["Domain"], swiftSettings: strict),
        .target(name: "Translator", dependencies: ["Domain"], swiftSettings: strict),
        .target(name: "Presenter", dependencies: ["Domain", "Translator"], swiftSettings: strict),
        .target(
            name: "Gateway",
            dependencies: [
                "Domain", "Postgres",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        .target(name: "Scenes", dependencies: ["Domain", "UseCase"], swiftSettings: strict),
        .target(
            name: "LiveScenes",
            dependencies: ["Scenes", "Domain", "UseCase", "Gateway", "Postgres", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "HTTP",
            dependencies: [
                // Gateway and Postgres: the item cache's LISTEN connection (ItemCacheListener), and
                // the pool's and the cache's figures MetricsRoutes shows.
                "Scenes", "LiveScenes", "Domain", "Presenter", "UseCase", "Gateway", "Postgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The API document scenegen writes, and the line saying it did (see Tools/scenegen).
            exclude: ["Resources/openapi.json.scenegen"],
            resources: [.copy("Resources/openapi.json")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "storefront",
            dependencies: [
                "HTTP", "Scenes", "LiveScenes", "Postgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: the scene generator (Tools/scenegen)
        .target(
            name: "SceneGenKit",
            dependencies: [.product(name: "Yams", package: "Yams")],
            path: "Tools/scenegen/SceneGenKit",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "postgres-client-benchmark", dependencies: ["Postgres"], path: "Benchmarks/PostgresClient",
            swiftSettings: strict),
        .executableTarget(
            name: "checkout-benchmark",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/CheckoutLoad", swiftSettings: strict),
        .executableTarget(
            name: "scenegen",
            dependencies: ["SceneGenKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tools/scenegen/CLI",
            swiftSettings: strict
        ),

        // MARK: tests
        .target(
            name: "TestSupport",
            dependencies: ["Postgres", "Domain"],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "SceneGenKitTests",
            dependencies: ["SceneGenKit", "Postgres", "TestSupport"],
            exclude: ["Reference"],
            swiftSettings: strict
        ),
        .target(
            name: "MockSupport",
            dependencies: ["Domain"],
            path: "Tests/MockSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "UseCaseTests",
            dependencies: [
                "UseCase", "Scenes", "Domain", "MockSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict),
        .testTarget(name: "PresenterTests", dependencies: ["Presenter", "Translator", "Domain"], swiftSettings: strict),
        .testTarget(
            name: "PostgresTests",
            dependencies: ["Postgres", "CLinux", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                // UseCase: the demo catalog the variant migration is tested against.
                "Gateway", "Postgres", "Domain", "UseCase", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict),
        .target(
            name: "HTTPTestSupport",
            dependencies: [
                "Gateway", "Postgres", "TestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/HTTPTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "HTTPTests",
            dependencies: [
                "HTTP", "Scenes", "LiveScenes", "TestSupport", "HTTPTestSupport", "Postgres",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Crypto", package: "swift-crypto"),
                "StorefrontClient",
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // The generator's matrix of specs (Tests/SceneMatrixTests/Specs): every renderer's output,
        // compiled and its generated tests run, in one module outside the product.
        .testTarget(
            name: "SceneMatrixTests",
            dependencies: [
                "Domain", "UseCase", "Translator", "Presenter", "Gateway", "Scenes", "LiveScenes", "HTTP", "Postgres", "MockSupport",
                "TestSupport", "HTTPTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Specs", "Migrations"],
            swiftSettings: strict
        ),
    ]
)
