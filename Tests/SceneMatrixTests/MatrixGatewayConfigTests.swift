import Foundation
import LiveScenes
import Logging
import TestSupport
import Testing

@testable import HTTP

/// The generated registry checks the base URL of every generated http gateway as the service
/// starts: a bad one stops the start, naming the variable; none is allowed (its calls answer 502).
@Suite("Generated gateways' base URLs, checked at start")
struct MatrixGatewayConfigTests {
    static func build(_ environment: [String: String]) async throws -> Result<Void, any Error> {
        try await TestDatabase.with { db in
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.environment = environment
            let resources = AppResources(config: config, pool: db.pool, logger: Logger(label: "matrix"))
            return Result { _ = try buildRouter(resources, scenes: SceneRegistry.register(on:resources:)) }
        }
    }

    @Test func aBaseURLThatIsNoHTTPURLStopsTheStart() async throws {
        for bad in ["not a url", "ftp://probe.example", "/relative/path"] {
            guard case .failure(let error as ConfigError) = try await Self.build(["MATRIX_PROBE_URL": bad]) else {
                Issue.record("started with MATRIX_PROBE_URL=\(bad)")
                continue
            }
            #expect(error.problems == ["MATRIX_PROBE_URL: the base URL of MatrixTyped's Probe must be an http or https URL, got '\(bad)'"])
        }
    }

    @Test func anHTTPURLOrNoneStarts() async throws {
        #expect(
            try await Self.build(["MATRIX_PROBE_URL": "https://probe.example/v2", "MATRIX_PINGER_URL": "http://127.0.0.1:9"]).isSuccess)
        #expect(try await Self.build([:]).isSuccess)
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
