import Domain
import Foundation
import Postgres

/// The JSON an item's row holds or is read with: its options (`items.options`), a variant's
/// choice of values (`item_variants.options`) and the variants a read aggregates per item
/// (`PostgresItemStore.columns`). The database checks the shapes' outline; what is read back is
/// checked again here, and anything else is a decoding error, never a guess.
enum CatalogJSON {
    /// `[{"name": "size", "values": ["S", "M"]}, ...]`
    static func encode(_ options: [ItemOption]) -> String {
        text(options.map { ["name": $0.name, "values": $0.values] as [String: Any] })
    }

    /// `{"size": "S", "colour": "navy"}` (`{}` for none).
    static func encode(_ choice: [VariantOption]) -> String {
        text(Dictionary(choice.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// `[{"name": "size", "value": "S"}, ...]`: a variant's values as an order line keeps them,
    /// in the order of the item's options at checkout.
    static func encodeInOrder(_ choice: [VariantOption]) -> String {
        text(choice.map { ["name": $0.name, "value": $0.value] })
    }

    /// What `encodeInOrder` wrote, read as part of an order line's aggregate.
    /// - Throws: `PostgresError.decoding` for anything else.
    static func choiceInOrder(_ value: JSONValue) throws -> [VariantOption] {
        guard let list = value.array else { throw invalid("options") }
        return try list.map { element in
            guard let member = element.object, let name = member["name"]?.string, let value = member["value"]?.string else {
                throw invalid("options")
            }
            return VariantOption(name: name, value: value)
        }
    }

    /// - Throws: `PostgresError.decoding` for anything but the shape `encode` writes.
    static func options(_ json: String) throws -> [ItemOption] {
        guard let list = JSONValue.parse(json)?.array else { throw invalid("options") }
        return try list.map { element in
            guard let member = element.object, let name = member["name"]?.string, let values = member["values"]?.array else {
                throw invalid("options")
            }
            return ItemOption(
                name: name,
                values: try values.map { value in
                    guard let text = value.string else { throw invalid("options") }
                    return text
                })
        }
    }

    /// The variants aggregated by `PostgresItemStore.variantsColumn`, each variant's values in the
    /// order of the item's options.
    /// - Throws: `PostgresError.decoding` for anything but that shape.
    static func variants(_ json: String, options: [ItemOption]) throws -> [Variant] {
        try PositionalJSON.rows(of: json, column: "variants").map { variant in
            guard variant.values.count == 6, let chosen = variant.value(2).object.flatMap(strings) else { throw variant.invalid }
            return Variant(
                id: try variant.uuid(0), sku: try variant.string(1), options: choice(chosen, in: options),
                price: Money(amount: try variant.int64(3), currency: try variant.currency(4)), stock: try variant.int(5))
        }
    }

    /// The images aggregated by `PostgresItemStore.imagesColumn`, each URL `mediaURL/filename`.
    /// - Throws: `PostgresError.decoding` for anything but that shape.
    static func images(_ json: String, mediaURL: String?) throws -> [ItemImage] {
        try PositionalJSON.rows(of: json, column: "images").map { image in
            guard image.values.count == 5 else { throw image.invalid }
            let filename = try image.string(1)
            return ItemImage(
                id: try image.uuid(0), url: MediaURL.of(filename, at: mediaURL), alt: try image.string(2),
                variantID: image.value(3).isNull ? nil : try image.uuid(3), position: try image.int(4))
        }
    }

    /// A variant's values (`item_variants.options` as text), in the order of its item's options.
    /// - Throws: `PostgresError.decoding` for anything but an object of strings.
    static func choice(_ json: String, in options: [ItemOption]) throws -> [VariantOption] {
        guard let chosen = JSONValue.parse(json)?.object.flatMap(strings) else { throw invalid("options") }
        return choice(chosen, in: options)
    }

    /// An object whose members are all strings, as a dictionary; `nil` otherwise.
    private static func strings(_ object: [String: JSONValue]) -> [String: String]? {
        var strings: [String: String] = [:]
        strings.reserveCapacity(object.count)
        for (name, value) in object {
            guard let text = value.string else { return nil }
            strings[name] = text
        }
        return strings
    }

    private static func choice(_ chosen: [String: String], in options: [ItemOption]) -> [VariantOption] {
        let ordered = options.compactMap { option in chosen[option.name].map { VariantOption(name: option.name, value: $0) } }
        // Values of options the item no longer has are still shown, after the others.
        let rest = chosen.filter { name, _ in !options.contains { $0.name == name } }.sorted { $0.key < $1.key }
        return ordered + rest.map { VariantOption(name: $0.key, value: $0.value) }
    }

    private static func text(_ value: Any) -> String {
        // Only strings, arrays and dictionaries of them reach here: serialization cannot fail.
        String(decoding: (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("null".utf8), as: UTF8.self)
    }

    private static func invalid(_ column: String) -> PostgresError {
        .decoding(column: column, swiftType: "JSON of the catalog", postgresType: "json")
    }
}
