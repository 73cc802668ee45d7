import Yams

/// Stage one and two of the generator: YAML text -> a typed, validated `SceneSpec`, collecting
/// every problem with its line and column instead of stopping at the first.
public enum SpecParser {
    /// - Returns: the spec when the file has no error, and every diagnostic found.
    public static func parse(_ text: String, file: String) -> (spec: SceneSpec?, diagnostics: [Diagnostic]) {
        var sink = DiagnosticSink(file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            let (position, message) = describe(error)
            sink.error("YAML syntax: \(message)", at: position)
            return (nil, sink.diagnostics)
        } catch {
            sink.error("YAML syntax: \(error)", at: .start)
            return (nil, sink.diagnostics)
        }
        guard let root else {
            sink.error("the file is empty", at: .start)
            return (nil, sink.diagnostics)
        }
        var reader = SpecReader(sink: sink)
        let spec = reader.scene(root, file: file)
        return (reader.sink.diagnostics.isEmpty ? spec : nil, reader.sink.diagnostics)
    }

    private static func describe(_ error: YamlError) -> (SourcePosition, String) {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
            return (SourcePosition(line: mark.line, column: mark.column), problem)
        default:
            return (.start, "\(error)")
        }
    }
}

extension Node {
    var position: SourcePosition {
        mark.map { SourcePosition(line: $0.line, column: $0.column) } ?? .start
    }
}

/// Walks the YAML tree. Each method reads one construct, reports what is wrong with it, and
/// returns the best value it can so that later checks still run.
struct SpecReader {
    var sink: DiagnosticSink
    /// A field of the entity did not read (its error is reported): what names fields (filters,
    /// unique groups) is not checked against the rest, where every valid name would be "no field".
    var fieldsUnread = false

    // MARK: generic shapes

    /// The mapping's values by key, after reporting keys not in `allowed` and missing `required`.
    mutating func mapping(_ node: Node, _ what: String, allowed: [String], required: [String]) -> [String: Node] {
        guard case .mapping(let mapping) = node else {
            sink.error("\(what) must be a mapping", at: node.position)
            return [:]
        }
        var values: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.string, case .scalar = key else {
                sink.error("\(what) has a key that is not a plain name", at: key.position)
                continue
            }
            if !allowed.contains(name) {
                sink.error("unknown key '\(name)' in \(what) (allowed: \(allowed.joined(separator: ", ")))", at: key.position)
            } else if values[name] != nil {
                sink.error("duplicate key '\(name)' in \(what)", at: key.position)
            } else {
                values[name] = value
            }
        }
        for name in required where values[name] == nil {
            sink.error("\(what) is missing '\(name)'", at: node.position)
        }
        return values
    }

    mutating func string(_ node: Node?, _ what: String) -> String? {
        guard let node else { return nil }
        guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
            sink.error("\(what) must be a non-empty string", at: node.position)
            return nil
        }
        return scalar.string
    }

    mutating func int(_ node: Node?, _ what: String) -> Int64? {
        guard let node else { return nil }
        guard case .scalar(let scalar) = node, let value = Int64(scalar.string) else {
            sink.error("\(what) must be an integer", at: node.position)
            return nil
        }
        return value
    }

    /// `max_items` or `min_items` of a list (`key`): 1 to 10000 elements.
    mutating func itemCount(_ node: Node, _ key: String) -> Int? {
        guard let value = int(node, key) else { return nil }
        guard (1...10_000).contains(value) else {
            sink.error("\(key) is a count of elements from 1 to 10000", at: node.position)
            return nil
        }
        return Int(value)
    }

    /// A list's `min_items` (it needs `list`, and no more than its `max_items`).
    mutating func minItems(_ keys: [String: Node], list: Bool, maxItems: Int?) -> Int? {
        guard let node = keys["min_items"] else { return nil }
        if !list { sink.error("min_items bounds a list: it needs list: true", at: node.position) }
        guard let count = itemCount(node, "min_items") else { return nil }
        if let maxItems, count > maxItems { sink.error("min_items \(count) is more than max_items \(maxItems)", at: node.position) }
        return count
    }

    mutating func bool(_ node: Node?, _ what: String) -> Bool {
        guard let node else { return false }
        guard case .scalar = node, let value = node.bool else {
            sink.error("\(what) must be true or false", at: node.position)
            return false
        }
        return value
    }

    mutating func sequence(_ node: Node?, _ what: String) -> [Node] {
        guard let node else { return [] }
        guard case .sequence(let sequence) = node else {
            sink.error("\(what) must be a list", at: node.position)
            return []
        }
        return Array(sequence)
    }

    /// A snake_case name that is no Swift keyword.
    mutating func name(_ node: Node?, _ what: String) -> String? {
        guard let node, let name = string(node, what) else { return nil }
        if !Names.isSnakeCase(name) {
            sink.error("\(what) '\(name)' must be snake_case (lowercase letters, digits, single underscores)", at: node.position)
        } else if Names.isKeyword(name) {
            sink.error("\(what) '\(name)' is a Swift keyword", at: node.position)
        }
        return name
    }
}
