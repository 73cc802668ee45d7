/// Builds the operands of `ILIKE`: a user's word matched literally anywhere in a text.
enum SQLPattern {
    /// `%word%` with `\`, `%` and `_` escaped (ILIKE's default escape character is `\`). Escaped
    /// scalar by scalar, as PostgreSQL reads the pattern: a `%` followed by a combining mark is
    /// one `Character` in Swift, which is no `%`, and was left a wildcard.
    static func contains(_ word: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return "%" + String(escaped) + "%"
    }
}
