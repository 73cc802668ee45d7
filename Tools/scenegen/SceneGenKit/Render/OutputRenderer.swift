/// The Translator and Presenter layers: the response model (JSON keys in snake_case, every
/// field written, null included), the entity -> model translator, and the HTTP answers.
enum OutputRenderer {
    static func translator(_ names: SceneNames) -> String {
        guard names.spec.entity != nil else {
            let models = ModelRenderer.translator(names, declaring: true) + CustomUseCaseRenderer.models(names)
            return "import Domain\nimport Foundation\n\n" + models
        }
        var members: [(property: String, key: String, type: String, value: String)] = []
        let v = names.entityVariable
        for (index, field) in names.fields.enumerated() {
            let access = "\(v).\(field.property)"
            let chain = field.field.optional ? "\(access)?" : access
            let (type, value): (String, String)
            switch field.field.type {
            case .uuid: (type, value) = ("String", "\(chain).uuidString.lowercased()")
            case .money: (type, value) = ("MoneyModel", field.field.optional ? "\(access).map(MoneyModel.init)" : "MoneyModel(\(access))")
            case .timestamp:
                (type, value) = ("String", field.field.optional ? "\(access).map(Timestamp.rfc3339)" : "Timestamp.rfc3339(\(access))")
            case .enumeration: (type, value) = ("String", "\(chain).rawValue")
            case .int: (type, value) = ("Int", access)
            case .bigint: (type, value) = ("Int64", access)
            case .bool: (type, value) = ("Bool", access)
            case .string, .text: (type, value) = ("String", access)
            }
            members.append((field.property, field.name, type + (field.field.optional ? "?" : ""), value))
            if index == 0 && names.owned {
                members.append(("customerID", "customer_id", "String", "\(v).customerID.uuidString.lowercased()"))
            }
        }
        let models = CustomUseCaseRenderer.models(names)
        var out = "import Domain\n" + (models.isEmpty ? "" : "import Foundation\n") + "\n"
        out += "/// A \(UseCaseRenderer.humanName(names.entity)) as clients see it.\n"
        out += "public struct \(names.model): Codable, Hashable, Sendable {\n"
        out += members.map { "    public let \($0.property): \($0.type)\n" }.joined()
        out += "\n    enum CodingKeys: String, CodingKey {\n"
        for member in members {
            let bare = member.property.replacingOccurrences(of: "`", with: "")
            out += "        case \(member.property)" + (bare == member.key ? "\n" : " = \(swiftString(member.key))\n")
        }
        out += "    }\n\n"
        out += "    /// Writes every member, `null` included, so clients never guess whether a key exists.\n"
        out += "    public func encode(to encoder: any Encoder) throws {\n"
        out += "        var container = encoder.container(keyedBy: CodingKeys.self)\n"
        for member in members {
            out += "        try container.encode(\(member.property), forKey: .\(member.property))\n"
        }
        out += "    }\n}\n\n"
        out += "/// \(names.scene) entities to response models.\n"
        out += "public enum \(names.translator) {\n"
        out += "    public static func model(_ \(v): \(names.entity)) -> \(names.model) {\n"
        out += "        \(names.model)(\n"
        out += members.map { "            \($0.property.replacingOccurrences(of: "`", with: "")): \($0.value)" }.joined(separator: ",\n")
        out += "\n        )\n    }\n\n"
        out += "    public static func model(_ page: Page<\(names.entity)>) -> PageModel<\(names.model)> {\n"
        out += "        PageModel(data: page.items.map(model), nextCursor: page.nextCursor?.token)\n"
        out += "    }\n}\n"
        return out + ModelRenderer.translator(names, declaring: false) + models
    }

    static func presenter(_ names: SceneNames) -> String {
        var e: String { names.entity }  // CRUD answers only
        let t = names.translator
        var out = "import Domain\nimport Translator\n\n"
        out += "/// \(names.scene) outcomes to HTTP answers; errors are the shared ones of `Problem.from`.\n"
        out += "public enum \(names.presenter) {\n"
        var methods: [String] = []
        if !names.useCases(.list).isEmpty {
            methods.append(
                "    /// 200 with `{\"data\", \"next_cursor\"}`.\n"
                    + "    public static func page(_ outcome: Result<Page<\(e)>, any Error>) -> Presentation {\n"
                    + "        outcome.map { .json(200, \(t).model($0)) }.recover(Problem.from)\n    }\n")
        }
        if !names.useCases(.get).isEmpty || !names.useCases(.update).isEmpty {
            methods.append(
                "    /// 200 with the record.\n"
                    + "    public static func record(_ outcome: Result<\(e), any Error>) -> Presentation {\n"
                    + "        outcome.map { .json(200, \(t).model($0)) }.recover(Problem.from)\n    }\n")
        }
        if names.creates {
            var body = "    /// 201 with the record"
            if let show = names.useCases(.get).first {
                // The show route with the new row's id and its parent's filled in.
                let location = show.route.segments.map { segment -> String in
                    guard segment.hasPrefix("{") else { return segment }
                    let name = String(segment.dropFirst().dropLast())
                    let property = name == "id" ? "id" : SwiftField(field: names.parent!.field, entity: e).property
                    return "\\(created.\(property).uuidString.lowercased())"
                }.reduce("") { $0 + "/" + $1 }
                body += " and its `Location`.\n"
                body += "    public static func created(_ outcome: Result<\(e), any Error>) -> Presentation {\n"
                body += "        outcome.map { created in\n"
                body += "            .json(201, \(t).model(created), headers: [(\"Location\", \"\(location)\")])\n"
                body += "        }.recover(Problem.from)\n    }\n"
            } else {
                body += ".\n"
                body += "    public static func created(_ outcome: Result<\(e), any Error>) -> Presentation {\n"
                body += "        outcome.map { .json(201, \(t).model($0)) }.recover(Problem.from)\n    }\n"
            }
            methods.append(body)
        }
        if !names.useCases(.delete).isEmpty {
            methods.append(
                "    /// 204 with no body.\n"
                    + "    public static func deleted(_ outcome: Result<Void, any Error>) -> Presentation {\n"
                    + "        outcome.map { .noContent }.recover(Problem.from)\n    }\n")
        }
        for useCase in names.useCases(.custom) { methods.append(CustomUseCaseRenderer.presenter(names, useCase)) }
        return out + methods.joined(separator: "\n") + "}\n"
    }
}
