/// The built-in type OIDs the decoders accept (from `pg_type.dat`; stable across versions).
public struct PostgresType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let bool = PostgresType(rawValue: 16)
    public static let bytea = PostgresType(rawValue: 17)
    public static let char = PostgresType(rawValue: 18)
    public static let name = PostgresType(rawValue: 19)
    public static let int8 = PostgresType(rawValue: 20)
    public static let int2 = PostgresType(rawValue: 21)
    public static let int4 = PostgresType(rawValue: 23)
    public static let text = PostgresType(rawValue: 25)
    public static let oid = PostgresType(rawValue: 26)
    public static let json = PostgresType(rawValue: 114)
    public static let float4 = PostgresType(rawValue: 700)
    public static let float8 = PostgresType(rawValue: 701)
    public static let bpchar = PostgresType(rawValue: 1042)
    public static let varchar = PostgresType(rawValue: 1043)
    public static let date = PostgresType(rawValue: 1082)
    public static let timestamp = PostgresType(rawValue: 1114)
    public static let timestamptz = PostgresType(rawValue: 1184)
    public static let numeric = PostgresType(rawValue: 1700)
    public static let uuid = PostgresType(rawValue: 2950)
    public static let jsonb = PostgresType(rawValue: 3802)

    /// OIDs at or above this are user-defined (enums, domains): their text form is a string.
    static let firstUserDefined: UInt32 = 16384

    public var description: String {
        switch self {
        case .bool: return "boolean"
        case .bytea: return "bytea"
        case .char: return "\"char\""
        case .name: return "name"
        case .int8: return "bigint"
        case .int2: return "smallint"
        case .int4: return "integer"
        case .text: return "text"
        case .oid: return "oid"
        case .json: return "json"
        case .float4: return "real"
        case .float8: return "double precision"
        case .bpchar: return "character"
        case .varchar: return "character varying"
        case .date: return "date"
        case .timestamp: return "timestamp"
        case .timestamptz: return "timestamp with time zone"
        case .numeric: return "numeric"
        case .uuid: return "uuid"
        case .jsonb: return "jsonb"
        default: return "type oid \(rawValue)"
        }
    }
}
