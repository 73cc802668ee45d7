/// A hand-written port a scene's use cases need: a protocol of Domain (`HomeStore`) or a value
/// (`Currency`), held by the
/// container as `name` and built for production in the scene's once-file
/// `<Scene>Container+Ports.swift` (LiveScenes), where the spec cannot say how.
public struct PortSpec: Hashable, Sendable {
    /// snake_case; the container's and use case's property is its camelCase.
    public let name: String
    /// The protocol's name, or the value type's with `value: true`.
    public let type: String
    public let position: SourcePosition
    /// `value: true`: a value the use cases need (a setting such as the shop's currency), held as
    /// it is rather than as `any` protocol.
    public var value = false
    /// `optional: true`: the production graph may have none (a feature off by configuration);
    /// the logic decides what its absence answers.
    public var optional = false
}

/// A value type of the scene's answers (`HomeFeed`): a Domain struct, its response model and
/// translator, and its OpenAPI schema.
public struct ModelSpec: Hashable, Sendable {
    public let name: String
    public let fields: [ModelFieldSpec]
    public let position: SourcePosition
    /// `domain: handwritten`: the Domain type is written by hand (it holds more than answers
    /// show, as a review's author); the spec's fields are what answers show, read from its
    /// properties of the same names by the generated translator, so the compiler checks it.
    public var handwrittenDomain = false
}

/// A member of a model: a value of a field type, or a type another model or an entity is
/// (`Item`), either of them alone or as a list.
public struct ModelFieldSpec: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        /// A field type, as `type: int` or `type: enum` with its `values`.
        case field(FieldSpec)
        /// A model or entity declared by some spec.
        case named(String)
    }

    public let name: String
    public let value: Value
    /// `list: true`: an array of the value (never `null`; empty when there is none).
    public let list: Bool
    /// `map: true`: a JSON object of values keyed by text (`{"1": 4, "5": 9}`), never `null`.
    public var map = false
    /// `from: progress`: the property of the hand-written Domain type the member is read from,
    /// when its name is not the member's (an order's `status` from its `progress`).
    public var sourceProperty: String?
    public let optional: Bool
    public let position: SourcePosition
}

extension SceneSpec {
    /// The entity of a scene that has one. Only the renderers of an entity's files reach for it,
    /// and `Generator.scene` runs them only when there is one: reaching here without one is a
    /// generator bug.
    var record: EntitySpec {
        guard let entity else { preconditionFailure("\(scene) has no entity") }
        return entity
    }

    /// Whether a use case is counted against a rate limit (its routes then take the throttle).
    var isRateLimited: Bool { useCases.contains { $0.rateLimit != nil } }
    /// Whether a use case takes an upload (its routes need the instance's `UploadReceiver`).
    var takesUploads: Bool { useCases.contains { $0.input?.upload != nil } }

    /// The types this spec declares: its entity and its models.
    public var declaredTypes: [String] {
        (entity.map { [$0.name] } ?? []) + models.map(\.name) + useCases.flatMap { $0.input?.allObjects.map(\.type) ?? [] }
    }

    /// The enums its entity's enum fields generate (`<Entity><Field>`, unless `enum_type` names a
    /// hand-written one), with where each field is written.
    var generatedEnumTypes: [(name: String, position: SourcePosition)] {
        guard let entity else { return [] }
        return entity.fields.compactMap { field in
            guard field.type.isEnumeration, field.enumTypeName == nil else { return nil }
            return (entity.name + Names.upperCamelCase(field.name), field.position)
        }
    }

    /// Every field naming an enum with `enum_type`, wherever it is: the entity, a model, a custom
    /// input (its objects' fields included) or an answer's fields.
    var enumTypeFields: [FieldSpec] {
        let modelFields = models.flatMap { model in
            model.fields.compactMap { member -> FieldSpec? in
                if case .field(let field) = member.value { return field }
                return nil
            }
        }
        let useCaseFields = useCases.flatMap { useCase in
            let input = useCase.input.map { $0.all + $0.allObjects.flatMap(\.fields) } ?? []
            return input
                + useCase.outcomes.flatMap { outcome -> [FieldSpec] in
                    if case .fields(let fields) = outcome.body { return fields }
                    return []
                }
        }
        return ((entity?.fields ?? []) + modelFields + useCaseFields).filter { $0.enumTypeName != nil }
    }

    /// The hand-written enums its `enum_type`s name.
    var namedEnumTypes: [String] { entity?.fields.compactMap(\.enumTypeName) ?? [] }

    /// Every type name its models and answers use, with where each is written.
    var typeReferences: [(String, SourcePosition)] {
        var references: [(String, SourcePosition)] = []
        for model in models {
            for field in model.fields { if case .named(let name) = field.value { references.append((name, field.position)) } }
        }
        for useCase in useCases {
            for outcome in useCase.outcomes {
                switch outcome.body {
                case .model(let name), .page(let name): references.append((name, outcome.position))
                case .none, .entity, .fields: break
                }
            }
        }
        return references
    }
}
