import Domain
import Postgres

/// The WHERE clause of an item list, numbering `$` placeholders as conditions are added so the
/// statement stays parameterized whatever the filter holds.
struct ItemListQuery {
    private(set) var binds: [any PostgresEncodable] = []
    private var conditions: [String] = []

    /// Adds a condition; each bare `$` in it is numbered for the next of `values`.
    mutating func `where`(_ condition: String, _ values: any PostgresEncodable...) { self.where(condition, values) }

    mutating func `where`(_ condition: String, _ values: [any PostgresEncodable]) {
        conditions.append(numbered(condition, values))
    }

    /// `text` with each bare `$` numbered for the next of `values`, which are bound.
    mutating func numbered(_ text: String, _ values: [any PostgresEncodable]) -> String {
        var numbered = ""
        var remaining = values[...]
        for character in text {
            numbered.append(character)
            if character == "$", let value = remaining.popFirst() {
                binds.append(value)
                numbered += String(binds.count)
            }
        }
        return numbered
    }

    /// A bound value's placeholder (`$4`).
    mutating func bind(_ value: any PostgresEncodable) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    var whereClause: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }

    /// The items on sale `filter` matches: its category, every search word (the first
    /// `PostgresItemStore.maxSearchWords`) in name or description, and one live variant meeting
    /// every variant-level filter at once.
    mutating func whereMatches(_ filter: ItemFilter) {
        self.where("archived_at IS NULL")
        if let category = filter.category { self.where("category = $", category) }
        let words = (filter.search ?? "").split(whereSeparator: \.isWhitespace).prefix(PostgresItemStore.maxSearchWords)
        for word in words { self.where("(name || ' ' || description) ILIKE $", SQLPattern.contains(String(word))) }
        if filter.filtersVariants { whereSomeVariant(filter) }
    }

    /// One live variant of the item satisfies every variant-level filter at once.
    mutating func whereSomeVariant(_ filter: ItemFilter) {
        self.where("EXISTS (SELECT 1 FROM item_variants v WHERE v.item_id = items.id AND " + variantCondition(filter, alias: "v") + ")")
    }

    /// The variant-level filters on the live variant `alias`, numbered and bound.
    mutating func variantCondition(_ filter: ItemFilter, alias v: String) -> String {
        var condition = "\(v).removed_at IS NULL"
        var values: [any PostgresEncodable] = []
        if let min = filter.priceMin {
            condition += " AND \(v).price_amount >= $"
            values.append(min)
        }
        if let max = filter.priceMax {
            condition += " AND \(v).price_amount <= $"
            values.append(max)
        }
        if filter.inStock { condition += " AND \(v).stock > 0" }
        if !filter.options.isEmpty {
            condition += " AND \(v).options @> $::jsonb"
            values.append(
                CatalogJSON.encode(filter.options.sorted { $0.key < $1.key }.map { VariantOption(name: $0.key, value: $0.value) }))
        }
        return numbered(condition, values)
    }
}
