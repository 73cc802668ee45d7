import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Logging
import Postgres
import Scenes
import TestSupport
import Testing

@testable import HTTP

/// The served API document and the router describe the same routes, both ways.
@Suite("OpenAPI document")
struct OpenAPIHTTPTests {
    /// `METHOD /path` with every parameter written `{}`.
    static func normalized(_ method: String, _ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.hasPrefix(":") || $0.hasPrefix("{") ? "{}" : String($0)
        }
        return "\(method.uppercased()) \(segments.joined(separator: "/"))"
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        try await TestDatabase.with { db in
            let resources = AppResources(config: AppConfig(databaseURL: db.url), pool: db.pool, logger: Logger(label: "test"))
            let routes = Set(buildRouter(resources).routes.map { Self.normalized($0.method.rawValue, "\($0.path)") })
            let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, operations in operations.keys.map { Self.normalized($0, path) } })
            #expect(routes.subtracting(documented).isEmpty, "routes the document lacks: \(routes.subtracting(documented).sorted())")
            #expect(
                documented.subtracting(routes).isEmpty, "documented routes that do not exist: \(documented.subtracting(routes).sorted())")
            #expect(
                routes.contains("GET /v1/home") && routes.contains("POST /v1/reviews/{}/photos")
                    && routes.contains("DELETE /v1/wishlist/{}"))
        }
    }

    @Test func theDocumentIsServed() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/openapi.json")
            #expect(response.status == .ok && response.headers[.contentType] == "application/json")
            let document = try response.json
            #expect(document["openapi"] as? String == "3.1.0")
        }
    }
}

@Suite("Methods a path does not take")
struct MethodNotAllowedHTTPTests {
    @Test func areAnswered405WithAllow() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.delete, "/v1/home")
            try response.expectProblem(405)
            #expect(response.headers[.allow] == "GET")
            let item = try await client.send(.put, "/v1/items/\(UUID())")
            try item.expectProblem(405)
            #expect(item.headers[.allow] == "GET")
            try await client.send(.get, "/v1/nothing-here").expectProblem(404)
        }
    }
}
