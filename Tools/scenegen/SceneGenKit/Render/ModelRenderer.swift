/// A spec's `models`: each a Domain struct, and a response model with its translation in the
/// scene's translator (`HomeTranslator.model(_: HomeFeed) -> HomeFeedModel`). A member of a
/// declared type is translated by the translator of the scene that declares it, so a model of
/// one scene holds another's entity (`[Item]`, through `CatalogTranslator`).
enum ModelRenderer {
    /// One member of a model, as Domain holds it and as clients see it.
    struct Member {
        let name: String
        let property: String
        let bare: String
        let domainType: String
        let wireType: String
        /// The expression making the wire value of `value.<property>`.
        let wire: (String) -> String
        let enumDeclaration: String?
    }

    static func members(_ names: SceneNames, _ model: ModelSpec) -> [Member] {
        model.fields.map { field in
            switch field.value {
            case .field(let spec):
                let typed = TypedField(spec: spec, prefix: model.name)
                let element = CustomUseCaseRenderer.wire(typed, "$0")
                return Member(
                    name: field.name, property: typed.property, bare: typed.bare,
                    domainType: field.list ? "[\(typed.valueType)]" : typed.optionalValueType,
                    wireType: field.list ? "[\(element.type)]" : element.type,
                    wire: { value in
                        field.list ? "\(value).map { \(element.expression) }" : CustomUseCaseRenderer.wire(typed, value).expression
                    },
                    enumDeclaration: typed.enumDeclaration)
            case .named(let type):
                let translator = names.translator(of: type)
                let suffix = field.list ? "" : (field.optional ? "?" : "")
                return Member(
                    name: field.name, property: SceneNames.identifier(Names.member(field.name)), bare: Names.member(field.name),
                    domainType: (field.list ? "[\(type)]" : type) + suffix,
                    wireType: (field.list ? "[\(type)Model]" : "\(type)Model") + suffix,
                    wire: { value in
                        field.list || field.optional ? "\(value).map(\(translator).model)" : "\(translator).model(\(value))"
                    },
                    enumDeclaration: nil)
            }
        }
    }

    /// `Domain/<Scene>/<Model>.swift`.
    static func domain(_ names: SceneNames, _ model: ModelSpec) -> String {
        let members = members(names, model)
        var out = "import Foundation\n\n"
        out += "/// `\(model.name)` of the \(names.scene) scene's answers.\n"
        out += "public struct \(model.name): Hashable, Sendable {\n"
        out += members.map { "    public let \($0.property): \($0.domainType)\n" }.joined()
        out += "\n" + DomainRenderer.initializer(members.map { "\($0.bare): \($0.domainType)" }, indent: "    ") + "}\n"
        return out + members.compactMap(\.enumDeclaration).map { "\n" + $0 }.joined()
    }

    /// The response models of the scene's models and their translations: in an extension of
    /// the scene's translator, or, for a scene without an entity, in its declaration.
    static func translator(_ names: SceneNames, declaring: Bool) -> String {
        var functions: [String] = []
        var structs = ""
        for model in names.spec.models {
            let members = members(names, model)
            let variable = SceneNames.identifier(SceneNames.lowerFirst(model.name))
            var function = "    public static func model(_ \(variable): \(model.name)) -> \(model.name)Model {\n"
            function += "        \(model.name)Model(\n"
            function += members.map { "            \($0.bare): \($0.wire("\(variable).\($0.property)"))" }.joined(separator: ",\n")
            function += "\n        )\n    }\n"
            functions.append(function)
            structs += "\n/// `\(model.name)` as clients see it.\n"
            structs += "public struct \(model.name)Model: Codable, Hashable, Sendable {\n"
            structs += members.map { "    public let \($0.property): \($0.wireType)\n" }.joined()
            structs += "\n    enum CodingKeys: String, CodingKey {\n"
            for member in members {
                structs += "        case \(member.property)" + (member.bare == member.name ? "\n" : " = \(swiftString(member.name))\n")
            }
            structs += "    }\n\n"
            structs += "    /// Writes every member, `null` included.\n"
            structs += "    public func encode(to encoder: any Encoder) throws {\n"
            structs += "        var container = encoder.container(keyedBy: CodingKeys.self)\n"
            structs += members.map { "        try container.encode(\($0.property), forKey: .\($0.property))\n" }.joined()
            structs += "    }\n}\n"
        }
        guard declaring || !functions.isEmpty else { return "" }
        var out =
            declaring
            ? "/// \(names.scene) models to response models.\npublic enum \(names.translator) {\n" : "\nextension \(names.translator) {\n"
        out += functions.joined(separator: "\n") + "}\n"
        return out + structs
    }
}
