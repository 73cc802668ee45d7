import Foundation
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
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
            let routes = Set(try buildRouter(resources).routes.map { Self.normalized($0.method.rawValue, "\($0.path)") })
            let document = try #require(try JSONSerialization.jsonObject(with: Self.committedDocument) as? [String: Any])
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

    /// What scenegen wrote into the source tree (`Sources/HTTP/Resources/openapi.json`).
    static var committedDocument: Data {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try Data(contentsOf: root.appendingPathComponent("Sources/HTTP/Resources/openapi.json"))
        }
    }

    @Test func theDocumentIsServedAsScenegenWroteIt() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/openapi.json")
            #expect(response.status == .ok && response.headers[.contentType] == "application/json")
            #expect(Data(buffer: response.body) == (try Self.committedDocument), "the bundled resource, byte for byte")
            let document = try response.json
            #expect(document["openapi"] as? String == "3.1.0")
        }
    }

    /// The shapes swift-openapi-generator (StorefrontClient) reads wrongly are absent: a
    /// `{"type": "null"}` alternative (it drops the member), `oneOf` (a body matching two
    /// alternatives matches none), an `enum` without a `type` (typed as any JSON value).
    @Test func theDocumentHoldsNoShapeAGeneratorMisreads() throws {
        var faults: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let schema = value as? [String: Any] {
                if schema["oneOf"] != nil { faults.append("\(path): oneOf") }
                if schema["enum"] != nil, schema["type"] == nil { faults.append("\(path): enum without type") }
                if schema["type"] as? String == "null" { faults.append("\(path): a null alternative") }
                for (key, member) in schema { walk(member, "\(path)/\(key)") }
            } else if let array = value as? [Any] {
                for (index, member) in array.enumerated() { walk(member, "\(path)/\(index)") }
            }
        }
        walk(try JSONSerialization.jsonObject(with: Self.committedDocument), "#")
        #expect(faults.isEmpty, "\(faults.sorted())")
    }

    /// A build without its document, or with a broken one, fails to build the application with a
    /// message naming the file, instead of answering 500 (or 404 for every 405) later.
    @Test func aMissingOrCorruptDocumentIsALoadError() throws {
        #expect(throws: APIDocument.LoadError.self) { try APIDocument.load(from: nil) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-document-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let absent = directory.appendingPathComponent("absent.json")
        let unreadable = #expect(throws: APIDocument.LoadError.self) { try APIDocument.load(from: absent) }
        #expect(unreadable?.description.hasPrefix("the API document \(absent.path) cannot be read") == true)
        for corrupt in ["{\"openapi\": \"3.1.0\", \"paths\": ", "{\"openapi\": \"3.1.0\"}", "[]"] {
            let file = directory.appendingPathComponent("openapi.json")
            try corrupt.write(to: file, atomically: true, encoding: .utf8)
            let error = #expect(throws: APIDocument.LoadError.self) { try APIDocument.load(from: file) }
            #expect(error?.description == "the API document \(file.path) is not an OpenAPI document with paths; run `swift run scenegen`")
        }
        #expect(throws: Never.self) { try APIDocument.bundled.get() }
    }
}

@Suite("Methods a path does not take")
struct MethodNotAllowedHTTPTests {
    @Test func areAnswered405WithAllow() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.delete, "/v1/home")
            try response.expectProblem(405)
            #expect(response.headers[.allow] == "GET, HEAD")
            #expect(try await client.send(.head, "/v1/home").status == .ok, "as Allow says")
            let item = try await client.send(.put, "/v1/items/\(UUID())")
            try item.expectProblem(405)
            #expect(item.headers[.allow] == "GET, HEAD")
            try await client.send(.get, "/v1/nothing-here").expectProblem(404)
        }
    }
}
