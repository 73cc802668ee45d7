/// What a generated record route answers besides its success, each a problem document: the API
/// document lists them as the custom routes' outcomes are listed, so an app (and its generated
/// client) can name them; `default` still covers the service's own failures (503, 500).
extension OpenAPIRenderer {
    /// - Parameter referenced: whether another spec's entity refers to this one's rows (a delete
    ///   of a row still referred to answers 409).
    static func recordRefusals(_ names: SceneNames, _ useCase: UseCaseSpec, referenced: Bool) -> [String: Any] {
        // A custom route's outcomes are its spec's (`customOperation`).
        guard useCase.kind != .custom else { return [:] }
        var refusals: [String: String] = [:]
        switch useCase.auth {
        case .public: break
        case .customer: refusals["401"] = "No session, or an ended one"
        case .admin: refusals["401"] = "No admin token, or a wrong one"
        }
        if useCase.route.segments.contains(where: { $0.hasPrefix("{") }) { refusals["400"] = "A path parameter that is no UUID" }
        let entity = names.spec.record
        let unique = entity.fields.contains(where: \.unique) || !entity.uniqueTogether.isEmpty
        switch useCase.kind {
        case .create:
            refusals["422"] = "A field missing, breaking its rules, or referring to nothing; each is named"
            if unique || entity.maxPerOwner != nil {
                refusals["409"] = [
                    unique ? "Another record already has this value (duplicate)" : nil,
                    entity.maxPerOwner.map { "The customer keeps \($0) already (limit-reached)" },
                ].compactMap { $0 }.joined(separator: "; ")
            }
            if names.parent != nil { refusals["404"] = "No such \(names.parentLabel ?? "parent")" }
        case .list:
            refusals["400"] =
                names.parent == nil
                ? "A cursor this service did not issue" : "A cursor this service did not issue, or a parent id that is no UUID"
            refusals["422"] = "A limit or a filter's value out of its range"
            if names.parent != nil { refusals["404"] = "No such \(names.parentLabel ?? "parent")" }
        case .get:
            refusals["404"] = "No such record"
        case .update, .replace:
            refusals["404"] = "No such record"
            refusals["422"] = "A field breaking its rules, or referring to nothing; each is named"
            if unique { refusals["409"] = "Another record already has this value (duplicate)" }
        case .delete:
            refusals["404"] = "No such record"
            if referenced { refusals["409"] = "Other records still refer to it (in-use)" }
        case .custom:
            return [:]
        }
        let content = problemResponse["content"]!
        return refusals.mapValues { ["description": $0, "content": content] }
    }
}
