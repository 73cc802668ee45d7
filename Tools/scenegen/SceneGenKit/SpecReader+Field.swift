import Yams

/// Fields: their keys, types, defaults and enum values.
extension SpecReader {
    /// The most bytes a JSON body holds (`RequestParsing.maxJSONBytes` in the service).
    static let maxBodyBytes = 64 * 1024

    mutating func field(_ node: Node, role: FieldRole = .entity) -> FieldSpec? {
        let keys = mapping(node, role.what, allowed: role.keys, required: ["name", "type"])
        let name = self.name(keys["name"], "field name")
        var type: FieldType?
        if let typeNode = keys["type"], let typeName = string(typeNode, "type") {
            switch typeName {
            case "uuid": type = .uuid
            case "string": type = .string
            case "text": type = .text
            case "int": type = .int
            case "bigint": type = .bigint
            case "bool": type = .bool
            case "money": type = .money
            case "timestamp": type = .timestamp
            case "number":
                type = .number
                if role != .plain {
                    sink.error(
                        "number is for answers only (a value the logic computes, such as a mean rating); what is stored or taken from clients is exact: int, bigint or money",
                        at: typeNode.position)
                }
            case "enum":
                type = .enumeration(enumValues(keys["values"], at: typeNode.position))
            default:
                let meant = [
                    "integer": "int", "long": "bigint", "boolean": "bool", "str": "string", "date": "timestamp", "datetime": "timestamp",
                ][
                    typeName.lowercased()]
                sink.error(
                    "unknown type '\(typeName)' (known: \(FieldType.names.joined(separator: ", ")))\(meant.map { "; did you mean \($0)?" } ?? "")",
                    at: typeNode.position)
            }
        }
        if let values = keys["values"], type.map({ if case .enumeration = $0 { return false } else { return true } }) == true {
            sink.error("'values' belongs to enum fields only", at: values.position)
        }
        let min = int(keys["min"], "min")
        let max = int(keys["max"], "max")
        if let min, let max, min > max { sink.error("min (\(min)) is greater than max (\(max))", at: keys["min"]!.position) }
        // An int is PostgreSQL's integer: a bound past it let values through that the column
        // refused (a 500). A string's lengths are never negative.
        if type == .int {
            for (key, bound) in [("min", min), ("max", max)] where bound.map({ Int32(exactly: $0) == nil }) == true {
                sink.error("\(key) (\(bound!)) is past an int's range, -2147483648 to 2147483647: use type bigint", at: keys[key]!.position)
            }
        }
        if type == .string || type == .text {
            for (key, bound) in [("min", min), ("max", max)] where bound.map({ $0 < 0 }) == true {
                sink.error("\(key) (\(bound!)) is a length: it cannot be negative", at: keys[key]!.position)
            }
            // A JSON body holds at most 64 KiB (`RequestParsing.maxJSONBytes`), a code point at
            // least a byte of it: a longer minimum refuses every request.
            if let min, min > Self.maxBodyBytes {
                sink.error(
                    "min (\(min)) is more than any request carries: a body holds at most \(Self.maxBodyBytes) bytes",
                    at: keys["min"]!.position)
            }
        }
        if let type, keys["min"] != nil || keys["max"] != nil {
            switch type {
            case .int, .bigint, .string, .text, .money: break
            default:
                sink.error(
                    "min and max apply to int, bigint, money, string and text fields only", at: (keys["min"] ?? keys["max"])!.position)
            }
        }
        if type == .string && max == nil && role != .plain, let typeNode = keys["type"] {
            sink.error("a string field needs 'max' (use text for long free text)", at: typeNode.position)
        }
        var references: String?
        if let node = keys["references"] { references = self.name(node, "references") }
        if references != nil, let type, type != .uuid {
            sink.error("references needs a uuid field", at: keys["references"]!.position)
        }
        var defaultValue: DefaultValue?
        if let node = keys["default"] { defaultValue = self.defaultValue(node, type: type) }
        if let node = keys["default"], let defaultValue, !Self.fits(defaultValue, type: type, min: min, max: max) {
            sink.error(
                "default breaks the field's own bounds (min \(min.map(String.init) ?? "none"), max \(max.map(String.init) ?? "none"))",
                at: node.position)
        }
        if defaultValue == .now && role != .entity {
            sink.error("default 'now' belongs to entity fields only", at: keys["default"]!.position)
        }
        guard let name, let type else { return nil }
        var field = FieldSpec(
            name: name, type: type, primary: bool(keys["primary"], "primary"), optional: bool(keys["optional"], "optional"),
            defaultValue: defaultValue, readonly: bool(keys["readonly"], "readonly"), unique: bool(keys["unique"], "unique"),
            references: references, min: min, max: max, position: node.position)
        field.adminOnly = bool(keys["admin_only"], "admin_only")
        field.onePerOwner = bool(keys["one_per_owner"], "one_per_owner")
        if let node = keys["enum_type"], let name = string(node, "enum_type") {
            if !type.isEnumeration {
                sink.error("enum_type names the Swift enum of an enum field; '\(field.name)' is \(type.name)", at: node.position)
            } else if !Names.isUpperCamelCase(name) || Names.swiftKeywords.contains(name) {
                sink.error("enum_type '\(name)' must be the UpperCamelCase name of a Domain enum", at: node.position)
            } else {
                field.enumTypeName = name
            }
        }
        if let node = keys["example"], let example = string(node, "example") {
            switch type {
            case .string, .text:
                let length = Int64(example.unicodeScalars.count)
                if length < (min ?? 0) || length > (max ?? .max) {
                    sink.error(
                        "example '\(example)' is \(length) characters, outside the field's own bounds (min \(min.map(String.init) ?? "none"), max \(max.map(String.init) ?? "none"))",
                        at: node.position)
                } else {
                    field.example = example
                }
            case .int, .bigint, .money:
                // A money field's example is its amount, in the yen of the generated tests; money
                // is never negative (its generated rule's floor is 0).
                let floor = min ?? (type == .money ? 0 : .min)
                if let value = Int64(example), value >= floor, value <= (max ?? .max), type != .int || Int32(exactly: value) != nil {
                    field.example = example
                } else {
                    sink.error(
                        "example '\(example)' must be an integer within the field's own bounds (min \(min.map(String.init) ?? "none"), max \(max.map(String.init) ?? "none"))",
                        at: node.position)
                }
            case .bool:
                if example == "true" || example == "false" {
                    field.example = example
                } else {
                    sink.error("example of a bool field is true or false", at: node.position)
                }
            case .enumeration(let values):
                if values.contains(example) {
                    field.example = example
                } else {
                    sink.error("example '\(example)' must be one of the field's values", at: node.position)
                }
            case .uuid, .timestamp, .number:
                sink.error(
                    "example gives a string, text, int, bigint, money (its amount), bool or enum field a valid value; \(type.name) samples are made",
                    at: node.position)
            }
        }
        if let node = keys["currency"] {
            if string(node, "currency") != "shop" { sink.error("currency takes one value: shop", at: node.position) }
            if type != .money { sink.error("currency: shop belongs to money fields", at: node.position) }
            if bool(keys["readonly"], "readonly") || bool(keys["primary"], "primary") {
                sink.error("currency: shop checks what clients write; a readonly field is written by none", at: node.position)
            }
            field.shopCurrency = true
        }
        field.partial = bool(keys["partial"], "partial")
        field.list = bool(keys["list"], "list")
        field.map = role == .input && bool(keys["map"], "map")
        if let node = keys["max_items"] {
            if !field.list && !field.map { sink.error("max_items bounds a list: it needs list: true", at: node.position) }
            field.maxItems = itemCount(node, "max_items")
        }
        field.minItems = minItems(keys, list: field.list, maxItems: field.maxItems)
        if field.map, let node = keys["map"] {
            if field.list || field.optional || defaultValue != nil {
                sink.error("a map is never absent (none sent is an empty map): not with list, optional or default", at: node.position)
            }
            if ![.string, .text, .int, .bigint].contains(type) && !type.isEnumeration {
                sink.error("a map holds string, text, int, bigint or enum values, not \(type.name)", at: node.position)
            }
        }
        if field.list && role == .input {
            let listable: [FieldType] = [.uuid, .string, .text, .int, .bigint]
            if !listable.contains(type) && !type.isEnumeration {
                sink.error("a list in a body holds uuid, string, text, int, bigint or enum values, not \(type.name)", at: node.position)
            }
            if defaultValue != nil { sink.error("a list takes no default (leave it out, or send [])", at: keys["default"]!.position) }
        }
        if field.partial && (type != .money || !field.optional), let node = keys["partial"] {
            sink.error(
                "partial marks an optional money input whose amount or currency may come alone (a change of a price): it needs type money and optional: true",
                at: node.position)
        }
        if field.adminOnly && (field.readonly || field.primary) {
            sink.error("admin_only marks a field admin routes write; a readonly or primary field is written by none", at: node.position)
        }
        if field.adminOnly, let example = keys["example"] {
            // The generated tests send an example with every create, a customer's too, which
            // refuses a field staff write.
            sink.error(
                "an admin_only field takes no example: the generated tests send examples to customers' routes too", at: example.position)
        }
        return field
    }

    /// Whether a default keeps the bounds its field checks a client's value against (a number
    /// its value, a text its length), so that leaving the field out is never refused.
    static func fits(_ value: DefaultValue, type: FieldType?, min: Int64?, max: Int64?) -> Bool {
        let measure: Int64
        switch value {
        case .int(let number): measure = number
        case .string(let text) where type == .string || type == .text: measure = Int64(text.unicodeScalars.count)
        default: return true
        }
        return (min ?? .min) <= measure && measure <= (max ?? .max)
    }

    mutating func defaultValue(_ node: Node, type: FieldType?) -> DefaultValue? {
        guard case .scalar(let scalar) = node else {
            sink.error("default must be a single value", at: node.position)
            return nil
        }
        let text = scalar.string
        guard let type else { return nil }
        switch type {
        case .timestamp:
            if text == "now" { return .now }
        case .int, .bigint:
            if let value = Int64(text) { return .int(value) }
        case .bool:
            if let value = node.bool { return .bool(value) }
        case .string, .text:
            return .string(text)
        case .enumeration(let values):
            if values.contains(text) { return .string(text) }
        case .uuid, .money, .number:
            break
        }
        let expected =
            switch type {
            case .timestamp: ": the only default is now"
            case .int, .bigint: ": a whole number"
            case .bool: ": true or false"
            case .enumeration(let values): ": one of \(values.joined(separator: ", "))"
            case .uuid, .money, .number: ": a \(type.name) field takes no default"
            case .string, .text: ""
            }
        sink.error("default '\(text)' does not fit a field of type \(type.name)\(expected)", at: node.position)
        return nil
    }

    /// The values of an enum field, verbatim; each must be a valid value whose Swift case name
    /// no other value shares (`in-stock` and `in_stock` both make `inStock`).
    mutating func enumValues(_ node: Node?, at position: SourcePosition) -> [String] {
        var values: [String] = []
        var cases: [String: String] = [:]
        for node in sequence(node, "values") {
            guard let value = string(node, "enum value") else { continue }
            guard Names.isEnumValue(value) else {
                sink.error(
                    "enum value '\(value)' must be 1 to 63 ASCII letters, digits, '-', '_', '.' or '/', starting with a letter or digit",
                    at: node.position)
                // Kept, refused, so that a default naming it is not refused again.
                values.append(value)
                continue
            }
            let name = Names.caseName(value)
            // Generated enums write their cases bare; `none` would read as Optional's own case.
            if Names.swiftKeywords.contains(name) || name == "none" {
                sink.error(
                    "enum value '\(value)' becomes the Swift case '\(name)', \(name == "none" ? "which Optional's own case would shadow" : "a Swift keyword"): choose another value, such as '\(value)-option'",
                    at: node.position)
                values.append(value)
                continue
            }
            if let other = cases[name] {
                sink.error(
                    other == value
                        ? "duplicate enum value '\(value)'"
                        : "enum values '\(other)' and '\(value)' both become the Swift case '\(name)'",
                    at: node.position)
                continue
            }
            cases[name] = value
            values.append(value)
        }
        if values.isEmpty && cases.isEmpty {
            sink.error("an enum field needs 'values', a list of values such as [JP, US] or [in-stock, sold-out]", at: position)
        }
        return values
    }
}

extension FieldType {
    var name: String {
        switch self {
        case .uuid: "uuid"
        case .string: "string"
        case .text: "text"
        case .int: "int"
        case .bigint: "bigint"
        case .bool: "bool"
        case .money: "money"
        case .timestamp: "timestamp"
        case .number: "number"
        case .enumeration: "enum"
        }
    }
}
