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
                    domainType: field.list ? "[\(typed.valueType)]" : field.map ? "[String: \(typed.valueType)]" : typed.optionalValueType,
                    wireType: field.list ? "[\(element.type)]" : field.map ? "[String: \(element.type)]" : element.type,
                    wire: { value in
                        if field.list { return "\(value).map { \(element.expression) }" }
                        // Keys as text: a hand-written Domain type may key by number (stars: count).
                        if field.map {
                            let pair = CustomUseCaseRenderer.wire(typed, "$0.value").expression
                            return "Dictionary(uniqueKeysWithValues: \(value).map { (String(describing: $0.key), \(pair)) })"
                        }
                        return CustomUseCaseRenderer.wire(typed, value).expression
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
        var out = CodeWriter()
        out.lines(["import Foundation", ""])
        out.doc("`\(model.name)` of the \(names.scene) scene's answers.")
        DomainRenderer.valueStruct(
            model.name, members.map { "\($0.property): \($0.domainType)" }, enums: members.compactMap(\.enumDeclaration), into: &out)
        return out.text
    }

    /// The response models of the scene's models and their translations: in an extension of
    /// the scene's translator, or, for a scene without an entity, in its declaration.
    static func translator(_ names: SceneNames, declaring: Bool) -> String {
        let models = names.spec.models
        guard declaring || !models.isEmpty else { return "" }
        var out = CodeWriter()
        let opener: String
        if declaring {
            out.doc("\(names.scene) models to response models.")
            opener = "public enum \(names.translator)"
        } else {
            out.blank()
            opener = "extension \(names.translator)"
        }
        out.block(opener) { out in
            for (index, model) in models.enumerated() {
                let variable = SceneNames.identifier(SceneNames.lowerFirst(model.name))
                let arguments = zip(model.fields, members(names, model)).map { field, member in
                    "\(member.bare): \(member.wire("\(variable).\(field.sourceProperty ?? member.property)"))"
                }
                if index > 0 { out.blank() }
                out.block("public static func model(_ \(variable): \(model.name)) -> \(model.name)Model") {
                    $0.list("\(model.name)Model(", arguments)
                }
            }
        }
        for model in models {
            let members = members(names, model)
            out.blank()
            out.doc("`\(model.name)` as clients see it.")
            out.block("public struct \(model.name)Model: \(OutputRenderer.modelConformances)") { out in
                out.lines(members.map { "public let \($0.property): \($0.wireType)" })
                WiringRenderer.codingKeys(members.map { ($0.property, $0.name) }, into: &out)
                out.blank()
                OutputRenderer.encodeEveryMember(
                    members.map { ($0.property, $0.name) }, doc: "Writes every member, `null` included.", into: &out)
            }
        }
        return out.text
    }
}
