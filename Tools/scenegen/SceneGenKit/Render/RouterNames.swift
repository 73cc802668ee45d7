/// The name the router knows each path parameter by. Hummingbird's router keeps one parameter
/// name per place in its tree, so a generated route under a path another scene serves already
/// (`/v1/items/{item_id}/questions` beside Catalog's `/v1/items/{id}`) is registered with the name
/// that place has; its code reads the parameter by that name and reports it by its own.
struct RouterNames: Sendable {
    /// The path before a parameter (literal segments, parameters as `{}`) -> the first name given.
    private var names: [String: String] = [:]

    init() {}

    /// - Parameter routes: every route the router serves, the ones whose names are fixed first
    ///   (hand-written scenes register their own).
    init(routes: [Route]) {
        for route in routes {
            var prefix = ""
            var used: Set<String> = []
            for (index, segment) in route.segments.enumerated() {
                if let parameter = Self.parameter(segment) {
                    // A name an earlier place of the same route took (`/v1/items/:id/notes/{id}`)
                    // would shadow it: the later place gets its index appended.
                    if names[prefix] == nil { names[prefix] = used.contains(parameter) ? "\(parameter)\(index)" : parameter }
                    used.insert(names[prefix]!)
                    prefix += "/{}"
                } else {
                    prefix += "/" + segment
                }
            }
        }
    }

    /// The router's name of `parameter` in `route`.
    func name(of parameter: String, in route: Route) -> String {
        var prefix = ""
        for segment in route.segments {
            if let name = Self.parameter(segment) {
                if name == parameter { return names[prefix] ?? parameter }
                prefix += "/{}"
            } else {
                prefix += "/" + segment
            }
        }
        return parameter
    }

    /// `routed: "id"` for a parameter the router knows by another name, with its leading comma;
    /// empty otherwise.
    func routedArgument(_ parameter: String, in route: Route) -> String {
        let routed = name(of: parameter, in: route)
        return routed == parameter ? "" : ", routed: \(swiftString(routed))"
    }

    /// The route as the router is given it: `/v1/items/:id/questions`.
    func path(_ route: Route) -> String {
        "/"
            + route.segments.map { segment in Self.parameter(segment).map { ":" + name(of: $0, in: route) } ?? segment }
            .joined(separator: "/")
    }

    private static func parameter(_ segment: String) -> String? {
        segment.hasPrefix("{") ? String(segment.dropFirst().dropLast()) : nil
    }
}
