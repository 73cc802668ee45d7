import Foundation

/// Which methods each documented path takes, read once from the API document, so a request with
/// a method a path does not take is answered 405 with `Allow` instead of 404.
enum AllowedMethods {
    /// Path templates split into segments (`nil` for a parameter) with their methods.
    static let routes: [(segments: [String?], methods: [String])] = {
        guard let document = try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any],
            let paths = document["paths"] as? [String: [String: Any]]
        else { return [] }
        return paths.map { path, operations in
            (path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }, operations.keys.map { $0.uppercased() }.sorted())
        }
    }()

    /// The methods `path` takes, or `nil` when no route has this path.
    static func forPath(_ path: String) -> [String]? {
        let parts = path.split(separator: "/").map(String.init)
        let methods = routes.filter { route in
            route.segments.count == parts.count && zip(route.segments, parts).allSatisfy { $0 == nil || $0 == $1 }
        }.flatMap(\.methods)
        return methods.isEmpty ? nil : Array(Set(methods)).sorted()
    }
}
