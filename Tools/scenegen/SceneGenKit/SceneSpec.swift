/// A validated scene description: what `Specs/Name.yml` says, in types.
public struct SceneSpec: Hashable, Sendable {
    public let file: String
    public let scene: String
    public let summary: String
    /// `code: handwritten`: the scene's Swift is written by hand; scenegen checks the spec but
    /// generates none of its code (its migration included).
    public let handwritten: Bool
    /// The table the scene keeps, or `nil` for a scene whose custom use cases work over its
    /// `ports` alone (the home feed reads other scenes' tables).
    public let entity: EntitySpec?
    public let useCases: [UseCaseSpec]
    public let gateways: [GatewaySpec]
    /// Hand-written ports the scene's use cases need beside its store and gateways.
    public var ports: [PortSpec] = []
    /// Value types the scene's answers are made of, beyond its entity.
    public var models: [ModelSpec] = []
}

public struct EntitySpec: Hashable, Sendable {
    public let name: String
    public let table: String
    /// `customer` when rows belong to the signed-in customer.
    public let owner: String?
    public let fields: [FieldSpec]
    /// Column groups no two rows share (`unique: [[customer_id, item_id]]`: a customer wishes
    /// for an item once); the owner's `customer_id` may be one of them.
    public let uniqueTogether: [[String]]

    /// The field a unique group's constraint is named after (`<table>_<field>_key`), and a
    /// violation reported as a duplicate of: its last that is not the owner's `customer_id`.
    static func constraintField(of group: [String]) -> String {
        group.last { $0 != "customer_id" } ?? group[group.count - 1]
    }
    /// `rules: true`: rules across fields (a postal code's form depends on the country), written
    /// by hand in the once-file `<Entity>+Rules.swift` and checked on create and replace, after
    /// each field's own rules.
    public var rules = false
    /// `max_per_owner: N`: how many rows one customer may keep; a create past it answers 409.
    public var maxPerOwner: Int?
    /// Where the spec names the table, for errors about it.
    public var tablePosition: SourcePosition?
}

public struct FieldSpec: Hashable, Sendable {
    public let name: String
    public let type: FieldType
    public let primary: Bool
    public let optional: Bool
    public let defaultValue: DefaultValue?
    public let readonly: Bool
    /// `admin_only: true`: written by admin routes only; a customer's or the public's create or
    /// update that sets it is refused (422).
    public var adminOnly = false
    /// `one_per_owner: true` on a bool of an owned entity: at most one of a customer's rows holds
    /// true (a default address). Setting it on one clears it on the others in the same
    /// transaction, and a row created while none of the customer's holds it gets it.
    public var onePerOwner = false
    /// `example: "JP"`: a valid value of a string, text, int, bigint, money (its amount), bool or
    /// enum field, which the generated tests send, an optional field's too (the rules across an
    /// entity's fields may refuse the sample they would make up).
    public var example: String?
    /// `enum_type: TaxClass` on an enum field: its Swift type is that enum, written once by hand in
    /// Domain with the spec's values as raw values, instead of one generated for this place.
    public var enumTypeName: String?
    /// `currency: shop` on an entity's money field: a value in another currency than the shop's
    /// (`SHOP_CURRENCY`) is refused on create, replace and update (422 naming `<field>.currency`),
    /// where a price the shop never charges in would be stored and then never used.
    public var shopCurrency = false
    /// `partial: true` on a money input: a change of amount, currency or both
    /// (`{"amount": 1500}` keeps the currency), checked into a `MoneyChange`.
    public var partial = false
    /// `list: true` on a problem's member: a list of its values (`item_ids`); on a body field, a
    /// list of values each checked by the field's rules (`values: [S, M]`).
    public var list = false
    /// `max_items` of a body's list (or a query map): how many elements it may hold at most.
    public var maxItems: Int?
    /// `min_items` of a body's list: how many elements it must hold at least.
    public var minItems: Int?
    /// `map: true` on a query parameter: every `name.<key>=value` (or `name[<key>]=value`) as a
    /// map of key to value (`option.size=M`), each value checked by the field's rules.
    public var map = false
    public let unique: Bool
    public let references: String?
    public let min: Int64?
    public let max: Int64?
    public let position: SourcePosition
}

public enum FieldType: Hashable, Sendable {
    case uuid, string, text, int, bigint, bool, money, timestamp
    /// A fractional number (a `Double`), for answers only: a value the logic computes, such as
    /// a mean rating. What is stored or taken from clients is exact (int, bigint, money).
    case number
    case enumeration([String])

    static let names = ["uuid", "string", "text", "int", "bigint", "bool", "money", "timestamp", "number", "enum"]
}

public enum DefaultValue: Hashable, Sendable {
    case now
    case int(Int64)
    case bool(Bool)
    case string(String)
}

public struct UseCaseSpec: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable { case create, list, get, update, replace, delete, custom }

    public let name: String
    public let kind: Kind
    public let route: Route
    public let auth: Auth
    /// Page size of a `list` (its default limit; the maximum stays 100).
    public let page: Int?
    /// Fields a `list` filters on by equality, each a query parameter of its name.
    public let filters: [String]
    public let gateways: [String]
    /// A custom use case's typed input (`nil` for CRUD kinds and handwritten scenes' custom ones).
    public let input: CustomInputSpec?
    /// A custom use case's answers, each a case of its generated outcome enum.
    public let outcomes: [OutcomeSpec]
    public let position: SourcePosition
    /// Counted against a rate limit before it runs (429 with `Retry-After` past it).
    public var rateLimit: RateLimitSpec?
    /// `background: true`: the logic may start work that outlives the answer (`BackgroundWork`,
    /// its failures logged with the request's id).
    public var background = false
}

public enum Auth: String, Hashable, Sendable, CaseIterable { case `public`, customer, admin }

/// `METHOD /path/{param}`.
public struct Route: Hashable, Sendable, CustomStringConvertible {
    public let method: String
    /// Path segments; a parameter is `{name}`.
    public let segments: [String]

    public var path: String { "/" + segments.joined(separator: "/") }
    public var parameters: [String] { segments.filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) } }
    public var description: String { "\(method) \(path)" }

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    /// `nil` unless `text` is a method, one space, and an absolute path of plain segments and
    /// `{snake_case}` parameters.
    init?(_ text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, Self.methods.contains(String(parts[0])), parts[1].hasPrefix("/") else { return nil }
        let segments = parts[1].dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !segments.isEmpty, segments.allSatisfy({ Self.validSegment($0) }) else { return nil }
        self.method = String(parts[0])
        self.segments = segments
    }

    private static func validSegment(_ segment: String) -> Bool {
        if segment.hasPrefix("{") && segment.hasSuffix("}") {
            return Names.isSnakeCase(String(segment.dropFirst().dropLast()))
        }
        return !segment.isEmpty && segment.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// Two routes clash when the router could not tell them apart: same method, same length, and
    /// every segment pair equal or both parameters. A fixed segment beside a parameter is no
    /// clash: the router tries fixed segments first (`GET /v1/zones/cheapest` beside
    /// `GET /v1/zones/{id}`, whose ids are UUIDs).
    func clashes(with other: Route) -> Bool {
        guard method == other.method, segments.count == other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { $0 == $1 || ($0.hasPrefix("{") && $1.hasPrefix("{")) }
    }
}

public struct GatewaySpec: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case http }
    public let name: String
    public let kind: Kind
    public let baseURLEnv: String
    /// The typed calls the generated port offers, one method each.
    public let operations: [GatewayOperationSpec]
}

extension SceneSpec {
    /// The field every CRUD route is nested under, as `item_id` in
    /// `GET /v1/items/{item_id}/notes`: a readonly reference the routes scope each row by (set
    /// from the path on create), or `nil` for top-level routes.
    public var parent: FieldSpec? {
        let parameter = useCases.lazy.filter { $0.kind != .custom }.flatMap { $0.route.parameters.filter { $0 != "id" } }.first
        return parameter.flatMap { name in entity?.fields.first { $0.name == name } }
    }
}
