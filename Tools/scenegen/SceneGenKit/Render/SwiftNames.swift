/// How a spec's names and types are spelled in the generated Swift.
struct SceneNames {
    let spec: SceneSpec
    /// The names the router knows path parameters by, across every spec.
    var routerNames = RouterNames()
    /// The scene declaring each entity and model of every spec, by type name.
    var typeScenes: [String: String] = [:]
    /// Whether the table the routes are nested under is a spec's entity with `owner: customer`
    /// (the hand-kept tables, `items` and `reviews`, are everyone's to read): a customer's rows go
    /// only under a parent of their own then.
    var parentOwned = false
    /// The tables of every spec's entity with `owner: customer`.
    var ownedTables: Set<String> = []

    /// The writable fields of an owned entity that refer to rows customers own (a customer's
    /// addresses): each names one of the row owner's own, as a checkout's address does. The
    /// foreign key alone let a customer point at another's row, which then blocked that
    /// customer's deletes and the deletion of their account.
    var ownedReferences: [SwiftField] {
        guard owned else { return [] }
        return writable.filter { field in field.field.references.map(ownedTables.contains) ?? false }
    }

    /// The translator of a declared type: its scene's (`Item` -> `CatalogTranslator`).
    func translator(of type: String) -> String { "\(typeScenes[type] ?? scene)Translator" }

    var scene: String { spec.scene }
    var entity: String { spec.record.name }
    /// `entry` for `WishlistEntry`'s variables: the entity name with a lowercase first letter.
    var entityVariable: String { Self.lowerFirst(entity) }
    var store: String { "\(entity)Store" }
    var postgresStore: String { "Postgres\(entity)Store" }
    var draft: String { "\(entity)Draft" }
    var changes: String { "\(entity)Changes" }
    var patch: String { "\(entity)Patch" }
    /// The fields a partial update may remove (its JSON `null`): the optional writable ones.
    var removable: String { "\(entity)RemovableField" }
    var useCase: String { "\(scene)UseCase" }
    var model: String { "\(entity)Model" }
    var translator: String { "\(scene)Translator" }
    var presenter: String { "\(scene)Presenter" }
    var container: String { "\(scene)Container" }
    var routes: String { "\(scene)Routes" }
    var createRequest: String { "Create\(entity)Request" }
    var updateRequest: String { "Update\(entity)Request" }
    var owned: Bool { spec.entity?.owner != nil }
    /// The owner argument of every store and use-case call of an owned entity, with a comma.
    var ownerArgument: String { owned ? "customerID: customerID, " : "" }
    /// The field the CRUD routes are nested under (see `SceneSpec.parent`).
    var parent: SwiftField? { spec.parent.map { SwiftField(field: $0, entity: entity) } }
    /// What a row is scoped by in every store and use-case call but `insert`: the owner, then
    /// the parent, as `(label, column)`; labels are also the variables' names.
    var scope: [(label: String, column: String)] {
        (owned ? [("customerID", "customer_id")] : []) + (parent.map { [($0.bareProperty, $0.name)] } ?? [])
    }
    /// Whether a public or admin route reads or changes an owned entity's rows: its store then
    /// takes the owner as `UUID?`, `nil` meaning any customer's.
    var anyOwner: Bool { owned && spec.useCases.contains { $0.kind != .custom && $0.auth != .customer } }
    /// The type of a scope value in store calls.
    func scopeType(_ label: String) -> String { label == "customerID" && anyOwner ? "UUID?" : "UUID" }
    /// The scope as a store's parameters (`customerID: UUID, itemID: UUID, `).
    var scopeParameter: String { scope.map { "\($0.label): \(scopeType($0.label)), " }.joined() }
    /// Whether `useCase` acts for the signed-in customer who owns the rows (rather than for
    /// anyone, or for staff over every customer's rows).
    func actsForOwner(_ useCase: UseCaseSpec) -> Bool { owned && useCase.auth == .customer }
    /// The scope a use case's method takes: the owner when it acts for the owner, the parent.
    func scopeParameter(_ useCase: UseCaseSpec) -> String {
        scope.filter { $0.label != "customerID" || actsForOwner(useCase) }.map { "\($0.label): UUID, " }.joined()
    }
    /// The scope a use case passes on (to the store, or from a route to the use case): `nil`
    /// for the owner when it acts for anyone.
    func scopeArgument(_ useCase: UseCaseSpec, toStore: Bool) -> String {
        scope.compactMap { item in
            guard item.label == "customerID", !actsForOwner(useCase) else { return "\(item.label): \(item.label), " }
            return toStore ? "customerID: nil, " : nil
        }.joined()
    }
    /// The ignored scope parameters of a stub closure over a store method (`_, _, `).
    var scopeClosureParameter: String { String(repeating: "_, ", count: scope.count) }
    /// `item` for the parent `item_id`: what a 404 for an unknown parent names.
    var parentLabel: String? {
        parent.map { $0.name.hasSuffix("_id") ? String($0.name.dropLast(3)).replacingOccurrences(of: "_", with: " ") : $0.name }
    }

    static func lowerFirst(_ name: String) -> String { name.prefix(1).lowercased() + name.dropFirst() }

    /// A name as a Swift identifier: backticked when it is a keyword.
    static func identifier(_ name: String) -> String { Names.swiftKeywords.contains(name) ? "`\(name)`" : name }

    func gatewayPort(_ gateway: GatewaySpec) -> String { "\(gateway.name)Gateway" }
    func portProperty(_ port: PortSpec) -> String { Self.identifier(Names.member(port.name)) }
    /// `any HomeStore`, or a value port's own type.
    func portType(_ port: PortSpec) -> String {
        let type = port.value ? port.type : "any \(port.type)"
        return port.optional ? (port.value ? "\(type)?" : "(\(type))?") : type
    }
    func gatewayProperty(_ gateway: GatewaySpec) -> String { Self.lowerFirst(gateway.name) }
    func method(_ useCase: UseCaseSpec) -> String { Self.identifier(Names.camelCase(useCase.name)) }
    /// `share` -> `ShareLinks`-style type name of a use case.
    func upper(_ useCase: UseCaseSpec) -> String { Names.upperCamelCase(useCase.name) }

    var fields: [SwiftField] { (spec.entity?.fields ?? []).map { SwiftField(field: $0, entity: entity) } }
    var writable: [SwiftField] { fields.filter(\.writable) }
    /// The writable fields a partial update may remove: those that may be absent.
    var removableFields: [SwiftField] { writable.filter(\.field.optional) }
    /// Whether a field must be in the shop's currency (`currency: shop`): the container then holds
    /// the shop's currency, and the draft's and the changes' checks take it.
    var checksShopCurrency: Bool { writable.contains(where: \.field.shopCurrency) }
    /// The fields `useCase` may write: an `admin_only` one by an admin route only.
    func writable(by useCase: UseCaseSpec) -> [SwiftField] { writable.filter { useCase.auth == .admin || !$0.field.adminOnly } }
    var primary: SwiftField { fields.first { $0.field.primary }! }
    var hasCreatedAt: Bool { spec.record.fields.contains { $0.name == "created_at" && $0.type == .timestamp } }
    /// Every column of the table in declaration order, the owner column second.
    var columns: [String] {
        var columns = fields.flatMap(\.columns)
        if owned { columns.insert("customer_id", at: 1) }
        return columns
    }

    /// The fields any list filters on, in declaration order: the members of `filter`.
    var filterFields: [SwiftField] { fields.filter { field in spec.useCases.contains { $0.filters.contains(field.name) } } }
    /// `EFilter`: what a store's page is narrowed to.
    var filter: String { "\(entity)Filter" }

    // The store offers a method only for the CRUD kinds the spec has.
    var creates: Bool { !useCases(.create).isEmpty }
    var lists: Bool { !useCases(.list).isEmpty }
    var gets: Bool { !useCases(.get).isEmpty }
    var deletes: Bool { !useCases(.delete).isEmpty }
    /// Whether the scene changes records; the parser refuses an update of an entity with no
    /// writable field.
    var updates: Bool { !useCases(.update).isEmpty }
    var replaces: Bool { !useCases(.replace).isEmpty }
    /// Whether clients send whole records (`EDraft`): to create them or to replace them.
    var drafts: Bool { creates || replaces }
    /// The bool field at most one of a customer's rows holds (`one_per_owner`).
    var onePerOwner: SwiftField? { fields.first { $0.field.onePerOwner } }

    func useCases(_ kind: UseCaseSpec.Kind) -> [UseCaseSpec] { spec.useCases.filter { $0.kind == kind } }
}

/// One entity field as Swift sees it.
struct SwiftField {
    let field: FieldSpec
    let entity: String

    var name: String { field.name }
    var property: String { SceneNames.identifier(Names.camelCase(field.name)) }
    /// The property name without backticks, for building other names.
    var bareProperty: String { Names.camelCase(field.name) }
    var writable: Bool { !field.primary && !field.readonly }
    var requiredOnCreate: Bool { writable && !field.optional && field.defaultValue == nil }
    /// Whether the generated tests send this field in a whole record: a required one, or one with
    /// an `example` (the rules across fields may want it).
    var sentInSamples: Bool { requiredOnCreate || (writable && field.example != nil) }
    var isMoney: Bool { field.type == .money }
    var enumType: String { field.enumTypeName ?? entity + Names.upperCamelCase(field.name) }

    /// The type of the entity's property.
    var valueType: String {
        switch field.type {
        case .uuid: return "UUID"
        case .string, .text: return "String"
        case .int: return "Int"
        case .bigint: return "Int64"
        case .bool: return "Bool"
        case .number: return "Double"
        case .money: return field.partial ? "MoneyChange" : "Money"
        case .timestamp: return "Date"
        case .enumeration: return enumType
        }
    }

    /// The type a client's input arrives in before it is checked.
    var inputType: String {
        switch field.type {
        case .money: return field.partial ? "MoneyChangeInput" : "MoneyInput"
        case .enumeration: return "String"
        default: return valueType
        }
    }

    var entityType: String { valueType + (field.optional ? "?" : "") }

    var columns: [String] { isMoney ? ["\(name)_amount", "\(name)_currency"] : [name] }

    /// The Swift expressions binding this field of `value` (an entity or patch property chain).
    func binds(_ value: String, optional: Bool) -> [String] {
        let chain = optional ? "?." : "."
        switch field.type {
        case .money: return ["\(value)\(chain)amount", "\(value)\(chain)currency.code"]
        case .enumeration: return ["\(value)\(chain)rawValue"]
        default: return [value]
        }
    }

    /// The Swift expression decoding this field from `row`.
    var decode: String {
        switch field.type {
        case .money:
            return field.optional
                ? "try row.optionalMoney(amount: \"\(name)_amount\", currency: \"\(name)_currency\")"
                : "try row.money(amount: \"\(name)_amount\", currency: \"\(name)_currency\")"
        case .enumeration:
            return field.optional
                ? "try row.optionalEnumeration(\"\(name)\", as: \(enumType).self)"
                : "try row.enumeration(\"\(name)\", as: \(enumType).self)"
        default:
            return "try row.decode(\"\(name)\")"
        }
    }

    /// The Swift literal of the field's default, as the entity's type.
    var defaultLiteral: String? {
        switch field.defaultValue {
        case nil: return nil
        case .now: return "now"
        case .int(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .string(let value):
            if case .enumeration = field.type { return ".\(SceneNames.identifier(Names.caseName(value)))" }
            return swiftString(value)
        }
    }
}

/// `text` as a Swift string literal.
func swiftString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        // Swift refuses other control characters in a literal as they are.
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
