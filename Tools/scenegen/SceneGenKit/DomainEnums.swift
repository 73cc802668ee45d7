import Foundation

/// The `String` enums Swift files declare, by name, each with its cases and their raw values:
/// what an `enum_type` may name. Read line by line, as the team writes enums (`enum Name: String, ...`,
/// one or more `case`s a line, a raw value in double quotes or the case's own name); a `case`
/// nested deeper (a `switch` in a property) is not one of the enum's.
enum DomainEnums {
    /// A case: its Swift name and its raw value.
    struct Case: Hashable {
        let name: String
        let value: String
    }

    static func declared(in sources: [String]) -> [String: [Case]] {
        var enums: [String: [Case]] = [:]
        for source in sources {
            // The enum being read, the depth of its body, and whether its `{` has come.
            var open: (name: String, values: [Case], depth: Int, entered: Bool)?
            var depth = 0
            for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                var body = code.trimmingCharacters(in: .whitespaces)
                if open == nil, let name = stringEnumName(body) {
                    open = (name, [], depth + 1, false)
                    // A body on the same line: `enum Kind: String { case a, b }`.
                    body =
                        code.split(separator: "{", maxSplits: 1).dropFirst().first.map {
                            String($0.prefix { $0 != "}" }).trimmingCharacters(in: .whitespaces)
                        } ?? ""
                    if body.hasPrefix("case ") { open?.values += caseValues(body.dropFirst(5)) }
                } else if let current = open, depth == current.depth, body.hasPrefix("case ") {
                    open?.values += caseValues(body.dropFirst(5))
                }
                depth += code.count { $0 == "{" } - code.count { $0 == "}" }
                guard let current = open else { continue }
                if depth >= current.depth {
                    open?.entered = true
                } else if current.entered || code.contains("}") {
                    enums[current.name] = current.values
                    open = nil
                }
            }
        }
        return enums
    }

    /// `Name` of a line that opens `enum Name: String...`.
    private static func stringEnumName(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "{" })
        guard let index = words.firstIndex(of: "enum"), index + 2 < words.count, words[index + 1].hasSuffix(":"),
            words[index + 2] == "String"
        else { return nil }
        return String(words[index + 1].dropLast())
    }

    /// The cases of `a, b = "x", c`.
    private static func caseValues(_ list: Substring) -> [Case] {
        list.split(separator: ",").compactMap { element in
            let parts = element.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let written = parts.first, !written.isEmpty, !written.contains("(") else { return nil }
            let name = written.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard parts.count == 2 else { return Case(name: name, value: name) }
            return parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"") && parts[1].count >= 2
                ? Case(name: name, value: String(parts[1].dropFirst().dropLast())) : nil
        }
    }
}
