import Foundation

/// Values the generated tests use: valid ones, a second valid one for updates, and an invalid one
/// with the field name the 422 must carry. Chosen from the spec's own bounds.
enum Samples {
    static func number(_ field: FieldSpec, preferring wanted: Int64) -> Int64 {
        var value = wanted
        if let min = field.min, value < min { value = min }
        if let max = field.max, value > max { value = max }
        return value
    }

    /// A valid amount of a money field in a currency other than the samples' (and the tests'
    /// shop's) yen, for the refusal of `currency: shop`.
    static func foreignMoney(_ field: FieldSpec) -> String {
        "MoneyInput(amount: \(number(field, preferring: 100)), currency: \"USD\")"
    }

    /// The integer the samples send: the field's example, or `wanted` within its bounds.
    static func integer(_ field: FieldSpec, preferring wanted: Int64) -> Int64 {
        field.example.flatMap { Int64($0) } ?? number(field, preferring: wanted)
    }

    /// The bool the samples send: the example, or true.
    static func bool(_ field: FieldSpec) -> String { field.example ?? "true" }

    /// The enum value the samples send: the example, or the first value.
    static func enumValue(_ field: FieldSpec, _ values: [String]) -> String { field.example ?? values[0] }

    static func length(_ field: FieldSpec) -> Int {
        let wanted = Int(max(field.min ?? 1, 1))
        return field.max.map { min(wanted, Int($0)) } ?? wanted
    }

    static func text(_ character: String, _ count: Int) -> String {
        count <= 20
            ? swiftString(String(repeating: character, count: count)) : "String(repeating: \(swiftString(character)), count: \(count))"
    }

    /// A timestamp field's sample, in seconds since 1970: an hour later for each line further
    /// down the spec, so that fields declared in order (`starts_at`, then `ends_at`) are in order,
    /// as a rule across them may ask.
    static func instant(_ field: FieldSpec) -> Int { 1_795_000_000 + 3_600 * field.position.line }

    /// `instant` as RFC 3339 text (`2026-11-19T...Z`).
    static func rfc3339(_ field: FieldSpec) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(instant(field))))
    }

    /// A valid input (`inputType`) as Swift; `reference` is the expression of a referenced id.
    static func input(_ field: SwiftField, reference: String) -> String {
        let f = field.field
        switch f.type {
        case .uuid: return f.references != nil ? reference : "UUID(uuidString: \"00000000-0000-4000-8000-000000000777\")!"
        case .string, .text: return f.example.map(swiftString) ?? text("a", length(f))
        case .int: return "\(integer(f, preferring: 1))"
        case .bigint: return "\(integer(f, preferring: 1))"
        case .bool: return bool(f)
        case .number: return "1.5"
        case .money where f.partial: return "MoneyChangeInput(amount: \(integer(f, preferring: 100)))"
        case .money: return "MoneyInput(amount: \(integer(f, preferring: 100)), currency: \"JPY\")"
        case .timestamp: return "Date(timeIntervalSince1970: \(instant(f)))"
        case .enumeration(let values): return swiftString(enumValue(f, values))
        }
    }

    /// The same valid value as JSON, for a request body (`\#(...)` interpolates in a raw string).
    static func json(_ field: SwiftField, reference: String) -> String {
        let f = field.field
        switch f.type {
        case .uuid: return f.references != nil ? "\"\\#(\(reference))\"" : "\"00000000-0000-4000-8000-000000000777\""
        case .string, .text:
            if let example = f.example { return jsonString(example) }
            let count = length(f)
            return count <= 20 ? "\"\(String(repeating: "a", count: count))\"" : "\"\\#(String(repeating: \"a\", count: \(count)))\""
        case .int, .bigint: return "\(integer(f, preferring: 1))"
        case .bool: return bool(f)
        case .number: return "1.5"
        // A partial change sends its amount alone, as a price change does.
        case .money where f.partial: return "{\"amount\": \(integer(f, preferring: 100))}"
        case .money: return "{\"amount\": \(integer(f, preferring: 100)), \"currency\": \"JPY\"}"
        case .timestamp: return "\"\(rfc3339(f))\""
        case .enumeration(let values): return "\"\(enumValue(f, values))\""
        }
    }

    /// A second valid value, different from `input`: as client input, as the entity's value (for
    /// a patch), as JSON, and a Swift check of a JSON member against it; `nil` when the field
    /// admits one value only or is a reference.
    static func other(_ field: SwiftField) -> (input: String, value: String, json: String, check: (String) -> String)? {
        let f = field.field
        // An example is the one value known to pass the rules across fields.
        guard f.example == nil else { return nil }
        switch f.type {
        case .uuid, .timestamp, .number: return nil
        case .string, .text:
            let count = length(f)
            guard count <= 20 else { return nil }
            let value = String(repeating: "b", count: count)
            return (swiftString(value), swiftString(value), "\"\(value)\"", { "\($0) as? String == \(swiftString(value))" })
        case .int, .bigint:
            let first = number(f, preferring: 1)
            let second = number(f, preferring: first + 1)
            guard second != first else { return nil }
            return ("\(second)", "\(second)", "\(second)", { "\($0) as? Int == \(second)" })
        case .bool: return ("false", "false", "false", { "\($0) as? Bool == false" })
        case .money:
            let first = number(f, preferring: 100)
            let second = number(f, preferring: first + 1)
            guard second != first else { return nil }
            return (
                "MoneyInput(amount: \(second), currency: \"JPY\")", "Money(amount: \(second), currency: Fixtures.yen)",
                "{\"amount\": \(second), \"currency\": \"JPY\"}", { "(\($0) as? [String: Any])?[\"amount\"] as? Int == \(second)" }
            )
        case .enumeration(let values):
            guard values.count > 1 else { return nil }
            return (
                swiftString(values[1]), ".\(SceneNames.identifier(Names.caseName(values[1])))", "\"\(values[1])\"",
                { "\($0) as? String == \(swiftString(values[1]))" }
            )
        }
    }

    /// `json` of a body field: a list sends one element.
    static func inputJSON(_ field: FieldSpec, reference: String) -> String {
        let one = json(SwiftField(field: field, entity: ""), reference: reference)
        return field.list ? "[\(one)]" : one
    }

    /// `invalid` of a body field as JSON: a list sends the bad value as its one element, named
    /// by its place (`values[0]`).
    static func invalidInput(_ field: FieldSpec) -> (json: String, errorField: String)? {
        guard let bad = invalid(SwiftField(field: field, entity: "")) else { return nil }
        return field.list ? ("[\(bad.json)]", "\(field.name)[0]") : (bad.json, bad.errorField)
    }

    /// An object's required members as JSON, its required nested objects within (a list of
    /// them with one element).
    static func objectJSON(_ object: InputObjectSpec, reference: String) -> String {
        let members =
            object.fields.filter { !$0.optional && $0.defaultValue == nil }.map { "\"\($0.name)\": " + inputJSON($0, reference: reference) }
            + object.objects.filter(\.required).map { nested in
                let element = objectJSON(nested, reference: reference)
                return "\"\(nested.name)\": " + (nested.list ? "[\(element)]" : element)
            }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// An input that breaks a rule: `(swift input, json, field named in the 422)`.
    static func invalid(_ field: SwiftField) -> (input: String, json: String, errorField: String)? {
        let f = field.field
        switch f.type {
        case .string, .text:
            if let max = f.max, max < 100_000 {
                let count = Int(max) + 1
                return (text("a", count), "\"\\#(String(repeating: \"a\", count: \(count)))\"", f.name)
            }
            if let min = f.min, min > 0 { return ("\"\"", "\"\"", f.name) }
            return nil
        case .int, .bigint:
            if let max = f.max, max < Int64(Int32.max) { return ("\(max + 1)", "\(max + 1)", f.name) }
            if let min = f.min, min > Int64(Int32.min) { return ("\(min - 1)", "\(min - 1)", f.name) }
            // An int without bounds still has its column's: one past them is refused, not a 500.
            if f.type == .int { return ("\(Int64(Int32.max) + 1)", "\(Int64(Int32.max) + 1)", f.name) }
            return nil
        case .money where f.partial:
            let amount = (f.min ?? 0) - 1
            return ("MoneyChangeInput(amount: \(amount))", "{\"amount\": \(amount)}", "\(f.name).amount")
        case .money:
            let amount = (f.min ?? 0) - 1
            return (
                "MoneyInput(amount: \(amount), currency: \"JPY\")", "{\"amount\": \(amount), \"currency\": \"JPY\"}", "\(f.name).amount"
            )
        case .enumeration:
            return ("\"not_a_value\"", "\"not_a_value\"", f.name)
        case .uuid, .bool, .timestamp, .number:
            return nil
        }
    }

    /// A Swift check that a response member holds the value `json` sent or the field's default.
    static func check(_ field: SwiftField, member: String, reference: String) -> String? {
        let f = field.field
        switch f.type {
        case .uuid: return f.references != nil ? "\(member) as? String == \(reference).lowercasedText" : nil
        case .string, .text:
            if let example = f.example { return "\(member) as? String == \(swiftString(example))" }
            let count = length(f)
            return count <= 20 ? "\(member) as? String == \(swiftString(String(repeating: "a", count: count)))" : nil
        case .int, .bigint: return "\(member) as? Int == \(integer(f, preferring: 1))"
        case .bool: return "\(member) as? Bool == \(bool(f))"
        case .number: return "\(member) as? Double == 1.5"
        case .money: return "(\(member) as? [String: Any])?[\"amount\"] as? Int == \(integer(f, preferring: 100))"
        case .timestamp: return "\(member) is String"
        case .enumeration(let values): return "\(member) as? String == \(swiftString(enumValue(f, values)))"
        }
    }

    /// A check that a member holds the field's default.
    static func defaultCheck(_ field: SwiftField, member: String) -> String? {
        switch field.field.defaultValue {
        case nil: return nil
        case .now: return "\(member) is String"
        case .int(let value): return "\(member) as? Int == \(value)"
        case .bool(let value): return "\(member) as? Bool == \(value)"
        case .string(let value): return "\(member) as? String == \(swiftString(value))"
        }
    }

    /// A value bound into a direct INSERT of a required column (a different one per call for
    /// unique columns).
    /// - Parameter distinct: the field is in a unique group: each call's value differs where
    ///   its type allows (text and numbers), so two rows of one test do not collide; an enum's or
    ///   a bool's is drawn at random.
    static func bind(_ field: FieldSpec, distinct: Bool = false) -> [String] {
        switch field.type {
        case .uuid: return ["UUID()"]
        case .string, .text:
            if field.unique || distinct {
                // HTTPTestSupport's counter: distinct within the test process, whatever the length.
                return ["distinctSampleText(length: \(max(Int(field.min ?? 1), min(Int(field.max ?? 32), 32))))"]
            }
            return [field.example.map(swiftString) ?? text("a", length(field))]
        case .int, .bigint:
            let type = field.type == .int ? "Int" : "Int64"
            guard distinct else { return ["\(type)(\(integer(field, preferring: 1)))"] }
            let low = field.min ?? 1
            let high = Swift.min(field.max ?? Int64(Int32.max), low + 1_000_000_000)
            return ["\(type).random(in: \(low)...\(high))"]
        // A few values only: picked at random, the insert retried while it collides
        // (`HTTPTestRenderer.insertHelper`).
        case .bool: return [distinct ? "Bool.random()" : bool(field)]
        case .number: return ["1.5"]
        case .money: return ["Int64(\(integer(field, preferring: 100)))", "\"JPY\""]
        case .timestamp: return ["Date()"]
        case .enumeration(let values):
            guard distinct else { return [swiftString(enumValue(field, values))] }
            return ["[\(values.map(swiftString).joined(separator: ", "))].randomElement()!"]
        }
    }
}

extension Samples {
    /// `text` as a JSON string inside a one-line Swift raw string (`#"..."#`): backslashes escaped
    /// for JSON, quotes and control characters as `\u` escapes (a `\"` would still end the raw
    /// string when a `#` follows it, and a line break would end the line), the rest as it is.
    static func jsonString(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\u0022"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }
}
