import Domain
import Foundation
import Postgres

/// The facets of a list: every count in one statement over the items the filter matches.
extension PostgresItemStore {
    /// - Throws: `TooManyRequests` when `catalogScans` are all under way: a count reads every item
    ///   the filter matches with their variants (most of a second for a search over 50,000
    ///   items), and without a bound a few anonymous clients held every pooled connection.
    public func facets(matching filter: ItemFilter, bands: [Int64]) async throws -> ItemFacets {
        try await scanning {
            let statement = Self.facetsStatement(matching: filter, bands: bands)
            let rows = try await translatingUnavailable { try await database.query(statement.sql, binds: statement.binds).rows }
            return try Self.facets(from: rows, bands: bands)
        }
    }

    /// Runs `scan`, a statement that reads many items (a facet count, a text search), in one of
    /// `catalogScans`' places.
    /// - Throws: `TooManyRequests` when every place is taken: one more waits for none.
    func scanning<T>(_ scan: () async throws -> T) async throws -> T {
        guard let catalogScans else { return try await scan() }
        guard catalogScans.tryAcquire() else {
            throw TooManyRequests(retryAfter: 1, limited: "catalog searches and facet counts under way on this server")
        }
        defer { catalogScans.release() }
        return try await scan()
    }

    /// The statement of the facets, its values bound (public for the same reasons as
    /// `listStatement`).
    static func facetsStatement(matching filter: ItemFilter, bands: [Int64]) -> (sql: String, binds: [any PostgresEncodable]) {
        var query = ItemListQuery()
        query.whereMatches(filter)
        let matching = "SELECT id, category, price_amount FROM items" + query.whereClause
        // The option counts join the variants that meet the filter: a value counts the items one
        // of whose variants holds it and would still match.
        let variants = query.variantCondition(filter, alias: "v")
        let thresholds = query.bind(PostgresInt64Array(bands))
        let sql = """
            WITH matching AS (\(matching))
            SELECT 'category' AS facet, category AS name, '' AS value, count(*)::int AS n FROM matching GROUP BY category
            UNION ALL
            SELECT 'option', o.name, o.value, count(DISTINCT m.id)::int FROM matching m
              JOIN item_variants v ON v.item_id = m.id AND \(variants)
              CROSS JOIN LATERAL variant_option_values(v.options) o GROUP BY o.name, o.value
            UNION ALL
            SELECT 'band', width_bucket(price_amount, \(thresholds)::bigint[])::text, '', count(*)::int FROM matching GROUP BY 2
            """
        return (sql, query.binds)
    }

    /// The facets from the statement's rows.
    static func facets(from rows: [PostgresRow], bands: [Int64]) throws -> ItemFacets {
        var categories: [CategoryFacet] = []
        var options: [String: [ValueFacet]] = [:]
        var bandCounts: [Int: Int] = [:]
        for row in rows {
            let count: Int = try row.decode("n")
            let name: String = try row.decode("name")
            switch try row.decode("facet", as: String.self) {
            case "category": categories.append(CategoryFacet(name: name, count: count))
            case "option": options[name, default: []].append(ValueFacet(value: try row.decode("value"), count: count))
            default: bandCounts[Int(name) ?? 0] = count
            }
        }
        let starts = [0] + bands
        let priceBands = starts.enumerated().map { index, start in
            PriceBand(min: start, max: index + 1 < starts.count ? starts[index + 1] - 1 : nil, count: bandCounts[index] ?? 0)
        }
        return ItemFacets(
            total: categories.reduce(0) { $0 + $1.count },
            categories: categories.sorted { ($1.count, $0.name) < ($0.count, $1.name) },
            options: options.keys.sorted().map { name in
                OptionFacet(name: name, values: options[name]!.sorted { ($1.count, $0.value) < ($0.count, $1.value) })
            },
            priceBands: priceBands)
    }
}
