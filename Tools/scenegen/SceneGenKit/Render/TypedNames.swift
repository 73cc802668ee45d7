extension Names {
    /// Initialisms the house style spells in capitals inside a name.
    static let initialisms: Set<String> = ["id", "url", "uri", "api", "http", "json", "sql", "sku"]

    /// `item_id` -> `itemID`, `share_url` -> `shareURL`, `item_ids` -> `itemIDs`: a member of the
    /// typed inputs and outcomes.
    static func member(_ snake: String) -> String {
        let parts = snake.split(separator: "_").map(String.init)
        guard let head = parts.first else { return snake }
        return head
            + parts.dropFirst().map { part in
                if initialisms.contains(part) { return part.uppercased() }
                if part.hasSuffix("s"), initialisms.contains(String(part.dropLast())) { return part.dropLast().uppercased() + "s" }
                return part.prefix(1).uppercased() + part.dropFirst()
            }.joined()
    }

    /// `stripe_signature` -> `Stripe-Signature`: the header an input field of `headers` reads.
    static func header(_ snake: String) -> String {
        snake.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// `create_link` -> `CreateLink`, `get_url` -> `GetURL`.
    static func typeName(_ snake: String) -> String {
        let member = member(snake)
        return member.prefix(1).uppercased() + member.dropFirst()
    }
}

/// A field of a typed input, outcome or gateway call as Swift sees it: `prefix` names the enum a
/// field of type enum gets (`WishlistShareInput` + `Kind`).
struct TypedField {
    let spec: FieldSpec
    let prefix: String

    var swift: SwiftField { SwiftField(field: spec, entity: prefix) }
    var name: String { spec.name }
    var property: String { SceneNames.identifier(Names.member(spec.name)) }
    var bare: String { Names.member(spec.name) }
    var enumType: String { swift.enumType }
    /// The checked value's type (the entity's, or the field's enum).
    var valueType: String {
        if case .enumeration = spec.type { return enumType }
        return swift.valueType
    }
    var optionalValueType: String { spec.list ? "[\(valueType)]" : valueType + (spec.optional ? "?" : "") }
    /// The checked value's type in an input: a list's `[T]`, optional when the member is.
    var inputValueType: String {
        if spec.map { return "[String: \(valueType)]" }
        return spec.list ? "[\(valueType)]" + (spec.optional ? "?" : "") : optionalValueType
    }
    /// The type the client's value arrives in, before it is checked.
    var uncheckedType: String {
        if spec.map { return "[String: \(swift.inputType)]" }
        return spec.list ? "[\(swift.inputType)]" : swift.inputType
    }
    /// Whether an input checks the value: its rules, or for a list or map its size or its
    /// elements'.
    var hasInputRule: Bool {
        DomainRenderer.hasRule(swift) || (spec.list || spec.map) && (spec.maxItems != nil || spec.minItems != nil)
    }
    /// Neither optional nor defaulted (nor a map, empty when none is sent): a client must send it.
    var required: Bool { !spec.optional && spec.defaultValue == nil && !spec.map }

    static func list(_ fields: [FieldSpec], prefix: String) -> [TypedField] { fields.map { TypedField(spec: $0, prefix: prefix) } }

    /// `public enum <enumType>` for an enum field, spelled as the entity's enums are.
    var enumDeclaration: String? {
        guard case .enumeration(let values) = spec.type, spec.enumTypeName == nil else { return nil }
        return DomainRenderer.enumeration(enumType, values: values)
    }
}

extension SceneNames {
    func input(_ useCase: UseCaseSpec) -> String { "\(scene)\(Names.typeName(useCase.name))Input" }
    func outcome(_ useCase: UseCaseSpec) -> String { "\(scene)\(Names.typeName(useCase.name))Outcome" }
    func rules(_ useCase: UseCaseSpec) -> String { "\(scene)\(Names.typeName(useCase.name))Rules" }
    /// The logic that says whether an upload may start, before its body is read.
    func precheck(_ useCase: UseCaseSpec) -> String { "\(method(useCase))BeforeUpload" }
    func body(_ useCase: UseCaseSpec) -> String { "\(scene)\(Names.typeName(useCase.name))Body" }
    /// The response model of an outcome with a list of fields.
    func outcomeModel(_ useCase: UseCaseSpec, _ outcome: OutcomeSpec) -> String {
        "\(scene)\(Names.typeName(useCase.name))\(Names.typeName(outcome.name))Model"
    }
    func outcomeFieldPrefix(_ useCase: UseCaseSpec, _ outcome: OutcomeSpec) -> String {
        "\(scene)\(Names.typeName(useCase.name))\(Names.typeName(outcome.name))"
    }
    func operationType(_ gateway: GatewaySpec, _ operation: GatewayOperationSpec, _ suffix: String) -> String {
        "\(gateway.name)\(Names.typeName(operation.name))\(suffix)"
    }
    func operationMethod(_ operation: GatewayOperationSpec) -> String { SceneNames.identifier(Names.member(operation.name)) }
}
