import Foundation
import Hummingbird
import HummingbirdTesting
import LiveScenes
import Logging
import Postgres
import Scenes
import TestSupport

@testable import HTTP

/// What the generated HTTP tests of the matrix sign in with on admin routes.
let adminToken = "test-admin-token-0123456789"

/// The harness the matrix's generated HTTP tests run in, as the product's run in `withApp` of
/// HTTPTests: the product's router and middleware with the matrix's scenes registered instead
/// of the product's, on a fresh database that has the product's schema and the
/// matrix's migrations.
/// `configure` changes the configuration first (a test's rate limits).
func withApp<T: Sendable>(
    configure: @Sendable (inout AppConfig) -> Void = { _ in },
    _ body: @escaping @Sendable (any TestClientProtocol, TestDatabase) async throws -> T
) async throws -> T {
    try await TestDatabase.with { db in
        try await db.pool.withConnection { connection in
            for migration in try MatrixMigrations.all() { try await connection.executeScript(migration) }
        }
        var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
        configure(&config)
        let resources = AppResources(config: config, pool: db.pool, logger: Logger(label: "matrix"))
        let router = try buildRouter(resources, scenes: SceneRegistry.register(on:resources:))
        return try await Application(router: router).test(.router) { client in try await body(client, db) }
    }
}

/// The matrix's migrations (`Tests/SceneMatrixTests/Migrations`), read from the source tree.
enum MatrixMigrations {
    static func all() throws -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        return try names.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    }
}
