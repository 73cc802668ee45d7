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

    /// `created_at` -> `createdAt`.
    public static func camelCase(_ snake: String) -> String {
        let parts = snake.split(separator: "_")
        guard let head = parts.first else { return snake }
        return String(head) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `share_links` -> `ShareLinks`.
    public static func upperCamelCase(_ snake: String) -> String {
        let camel = camelCase(snake)
        return camel.prefix(1).uppercased() + camel.dropFirst()
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

    public static func isKeyword(_ name: String) -> Bool {
        swiftKeywords.contains(name) || swiftKeywords.contains(camelCase(name))
    }
}
