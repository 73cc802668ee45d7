/// Builds the operands of `ILIKE`: a user's word matched literally anywhere in a text.
enum SQLPattern {
    /// `%word%` with `\`, `%` and `_` escaped (ILIKE's default escape character is `\`).
    static func contains(_ word: String) -> String {
        var escaped = ""
        for character in word {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }
}
