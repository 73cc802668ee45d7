/// Spelling rules for names: YAML says snake_case, Swift wants camelCase, types UpperCamelCase.
public enum Names {
    public static func isSnakeCase(_ name: String) -> Bool {
        guard let first = name.first, first.isLowercase, first.isASCII else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
            && !name.hasSuffix("_") && !name.contains("__")
    }

    public static func isUpperCamelCase(_ name: String) -> Bool {
        guard let first = name.first, first.isUppercase, first.isASCII else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// `created_at` -> `createdAt`; `id` after the first word is written `ID`, as Swift's API
    /// guidelines write acronyms (`item_id` -> `itemID`, `id_token` -> `idToken`).
    public static func camelCase(_ snake: String) -> String {
        let parts = snake.split(separator: "_")
        guard let head = parts.first else { return snake }
        return String(head) + parts.dropFirst().map { $0 == "id" ? "ID" : $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `share_links` -> `ShareLinks`.
    public static func upperCamelCase(_ snake: String) -> String {
        let camel = camelCase(snake)
        return camel.prefix(1).uppercased() + camel.dropFirst()
    }

    /// Whether `value` may be an enum value: 1 to 63 ASCII letters, digits, `-`, `_`, `.` and
    /// `/`, with a letter or digit first. The value is kept verbatim in JSON and SQL (`JP`,
    /// `in-stock`, `USD`, `image/jpeg`); only its Swift case name is derived (`caseName`).
    public static func isEnumValue(_ value: String) -> Bool {
        guard let first = value.first, first.isASCII, first.isLetter || first.isNumber, value.count <= 63 else { return false }
        return value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }
    }

    /// The Swift case name of an enum value: its words (split at `-`, `_`, `.`, `/`) in camelCase, a
    /// word written all in capitals lowercased whole (`JP` -> `jp`, `IN_STOCK` -> `inStock`,
    /// `in-stock` -> `inStock`, `PayPal` -> `payPal`), `value` before a leading digit (`3ds` ->
    /// `value3ds`).
    public static func caseName(_ value: String) -> String {
        let words = value.split(whereSeparator: { "-_./".contains($0) }).map { word -> String in
            word.allSatisfy { !$0.isLowercase } ? word.lowercased() : String(word)
        }
        guard let head = words.first else { return value }
        let name =
            head.prefix(1).lowercased() + head.dropFirst()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "value" + name : name
    }

    /// Swift keywords a generated identifier may not be (without backticks we do not emit).
    public static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "async", "some", "any", "Type", "Protocol",
    ]

    /// PostgreSQL 15's reserved key words (those that may be a function or type name included):
    /// none is a column or table name without quotes, which the generated SQL does not write, and
    /// some (`user`, `current_date`) would silently read as the function instead.
    public static let sqlReservedWords: Set<String> = [
        "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "binary", "both", "case",
        "cast", "check", "collate", "collation", "column", "concurrently", "constraint", "create", "cross", "current_catalog",
        "current_date", "current_role", "current_schema", "current_time", "current_timestamp", "current_user", "default",
        "deferrable", "desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "freeze", "from", "full",
        "grant", "group", "having", "ilike", "in", "initially", "inner", "intersect", "into", "is", "isnull", "join", "lateral",
        "leading", "left", "like", "limit", "localtime", "localtimestamp", "natural", "not", "notnull", "null", "offset", "on",
        "only", "or", "order", "outer", "overlaps", "placing", "primary", "references", "returning", "right", "select",
        "session_user", "similar", "some", "symmetric", "system_user", "table", "tablesample", "then", "to", "trailing", "true",
        "union", "unique", "user", "using", "variadic", "verbose", "when", "where", "window", "with",
    ]

    public static func isKeyword(_ name: String) -> Bool {
        swiftKeywords.contains(name) || swiftKeywords.contains(camelCase(name))
    }
}
