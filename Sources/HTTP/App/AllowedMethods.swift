/// Which methods each documented path takes, from the API document, so a request with a method a
/// path does not take is answered 405 with `Allow` instead of 404.
struct AllowedMethods: Sendable {
    /// Path templates split into segments (`nil` for a parameter) with their methods.
    let routes: [(segments: [String?], methods: [String])]

    /// - Parameter paths: the document's path templates (`/v1/items/{id}`) with their methods,
    ///   in any case. A path that takes GET takes HEAD too (the router answers it from the GET
    ///   route, `buildRouter`), listed or not.
    init(paths: [String: [String]]) {
        routes = paths.map { path, methods in
            var methods = Set(methods.map { $0.uppercased() })
            if methods.contains("GET") { methods.insert("HEAD") }
            return (path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }, methods.sorted())
        }
    }

    /// The methods `path` takes, or `nil` when no route has this path.
    func forPath(_ path: String) -> [String]? {
        let parts = path.split(separator: "/").map(String.init)
        let methods = routes.filter { route in
            route.segments.count == parts.count && zip(route.segments, parts).allSatisfy { $0 == nil || $0 == $1 }
        }.flatMap(\.methods)
        return methods.isEmpty ? nil : Array(Set(methods)).sorted()
    }
}
