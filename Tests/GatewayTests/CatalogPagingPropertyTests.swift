import Domain
import Foundation
import Gateway
import PropertyBased
import TestSupport
import Testing

/// For random catalogs (ties in every key on purpose) and random filters, walking every page of
/// every sort on real PostgreSQL returns each matching item exactly once, in the sort's order, and
/// the facets count what the list would show, as a brute-force filter of the same catalog says.
@Suite("Catalog pages against a brute-force model")
struct CatalogPagingPropertyTests {
    /// One random item: its key values drawn from small sets so that ties abound.
    struct Spec: Sendable, CustomStringConvertible {
        var category: Int
        var name: Int
        var minute: Int
        var reviews: Int
        var stars: Int
        /// Each variant: size index, colour index, price step, stock.
        var variants: [(size: Int, colour: Int, price: Int, stock: Int)]

        var description: String { "c\(category) n\(name) m\(minute) r\(reviews)/\(stars) \(variants)" }
    }

    struct Filter: Sendable, CustomStringConvertible {
        var category: Int?
        var priceMin: Int?
        var priceMax: Int?
        var inStock: Bool
        var size: Int?

        var description: String {
            "c\(category.map(String.init) ?? "-") \(priceMin ?? -1)...\(priceMax ?? -1) stock:\(inStock) size:\(size ?? -1)"
        }
    }

    static let sizes = ["S", "M", "L"]
    static let colours = ["navy", "white"]
    static let names = ["Mug", "mug", "Ämber", "Teapot", "マグ"]
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    static let variant = zip(Gen.int(in: 0...2), Gen.int(in: 0...1), Gen.int(in: 1...4), Gen.int(in: 0...2))
        .map { (size: $0.0, colour: $0.1, price: $0.2, stock: $0.3) }
    static let spec = zip(
        Gen.int(in: 0...2), Gen.int(in: 0...4), Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.int(in: 0...15), variant.array(of: 1...4)
    )
    .map { Spec(category: $0.0, name: $0.1, minute: $0.2, reviews: $0.3, stars: $0.4, variants: $0.5) }
    /// A filter's value, or none: below `range`'s start means none.
    static func maybe(_ range: ClosedRange<Int>) -> Generator<Int?, some SendableSequenceType> {
        Gen.int(in: (range.lowerBound - 1)...range.upperBound).map { $0 < range.lowerBound ? nil : $0 }
    }
    @Test func everyPageOfEverySortShowsEachMatchingItemOnceInOrder() async throws {
        let filters = zip(Self.maybe(0...2), Self.maybe(1...4), Self.maybe(1...4), Gen.bool, Self.maybe(0...2))
            .map { Filter(category: $0.0, priceMin: $0.1.map { $0 * 100 }, priceMax: $0.2.map { $0 * 100 }, inStock: $0.3, size: $0.4) }
        try await TestDatabase.with { db in
            let store = PostgresItemStore(database: db.pool)
            await propertyCheck(count: 25, input: Self.spec.array(of: 0...24), filters, Gen.int(in: 1...5)) { specs, filter, limit in
                do {
                    let catalog = try await Self.load(specs, into: store, db)
                    for sort in ItemSort.allCases {
                        let walked = try await Self.walk(store, Self.itemFilter(filter), sort: sort, limit: limit)
                        let expected = Self.model(catalog, filter, sort)
                        #expect(walked == expected, "\(sort) with \(filter), limit \(limit)")
                    }
                    let facets = try await store.facets(matching: Self.itemFilter(filter), bands: [200, 300])
                    #expect(Self.counts(facets) == Self.modelCounts(catalog, filter), "facets with \(filter)")
                } catch {
                    Issue.record(error)
                }
            }
        }
    }

    /// The catalog in the database, in place of the last one: each item with its variants of
    /// distinct values, its review figures written where reviews keep them.
    static func load(_ specs: [Spec], into store: PostgresItemStore, _ db: TestDatabase) async throws -> [(Item, Spec)] {
        try await db.pool.query("DELETE FROM items")
        var catalog: [(Item, Spec)] = []
        for (index, spec) in specs.enumerated() {
            var seen = Set<[Int]>()
            let unique = spec.variants.filter { seen.insert([$0.size, $0.colour]).inserted }
            let id = UUID()
            let variants = unique.enumerated().map { position, variant in
                VariantDraft(
                    id: UUID(), sku: "S\(index)-\(position)-\(id.uuidString.prefix(8))",
                    options: [
                        VariantOption(name: "size", value: sizes[variant.size]),
                        VariantOption(name: "colour", value: colours[variant.colour]),
                    ],
                    price: Money(amount: Int64(variant.price * 100), currency: Currency("JPY")!), stock: variant.stock)
            }
            let draft = ItemDraft(
                sku: "I\(index)-\(id.uuidString.prefix(8))", name: names[spec.name], description: "", category: "c\(spec.category)",
                options: [ItemOption(name: "size", values: sizes), ItemOption(name: "colour", values: colours)], variants: variants)
            _ = try await store.create(id: id, draft: draft, createdAt: epoch.addingTimeInterval(Double(spec.minute) * 60))
            let stars = spec.reviews == 0 ? 0 : min(max(spec.stars, spec.reviews), 5 * spec.reviews)
            try await db.pool.query("UPDATE items SET review_count = $2, rating_sum = $3 WHERE id = $1", id, spec.reviews, stars)
            var stored = spec
            stored.stars = stars
            stored.variants = unique
            catalog.append((try #require(try await store.item(id: id)), stored))
        }
        return catalog
    }

    static func itemFilter(_ filter: Filter) -> ItemFilter {
        ItemFilter(
            category: filter.category.map { "c\($0)" }, priceMin: filter.priceMin.map(Int64.init),
            priceMax: filter.priceMax.map(Int64.init),
            inStock: filter.inStock, options: filter.size.map { ["size": sizes[$0]] } ?? [:])
    }

    /// Every page of `sort`, `limit` at a time, following each page's cursor.
    static func walk(_ store: PostgresItemStore, _ filter: ItemFilter, sort: ItemSort, limit: Int) async throws -> [UUID] {
        var ids: [UUID] = []
        var cursor: ItemCursor?
        for _ in 0..<200 {
            let page = try await store.items(matching: filter, sort: sort, after: cursor, limit: limit)
            ids += page.map(\.item.id)
            guard page.count == limit, let last = page.last else { return ids }
            // Through its token, as a client hands it back.
            cursor = ItemCursor(token: last.cursor.token)
        }
        Issue.record("more pages than items")
        return ids
    }

    /// Whether one variant passes every variant filter.
    static func passes(_ variant: (size: Int, colour: Int, price: Int, stock: Int), _ filter: Filter) -> Bool {
        (filter.priceMin.map { variant.price * 100 >= $0 } ?? true) && (filter.priceMax.map { variant.price * 100 <= $0 } ?? true)
            && (!filter.inStock || variant.stock > 0) && (filter.size.map { $0 == variant.size } ?? true)
    }

    /// The items one of whose variants passes every variant filter at once.
    static func matching(_ catalog: [(Item, Spec)], _ filter: Filter) -> [(Item, Spec)] {
        catalog.filter { _, spec in
            (filter.category.map { $0 == spec.category } ?? true) && spec.variants.contains { passes($0, filter) }
        }
    }

    /// Facets as comparable counts: `category:c0`, `size:M`, `band:1` and `total`.
    static func counts(_ facets: ItemFacets) -> [String: Int] {
        var counts = ["total": facets.total]
        for category in facets.categories { counts["category:\(category.name)"] = category.count }
        for option in facets.options { for value in option.values { counts["\(option.name):\(value.value)"] = value.count } }
        for (index, band) in facets.priceBands.enumerated() where band.count > 0 { counts["band:\(index)"] = band.count }
        return counts
    }

    /// The facets a brute-force count gives: a value counts the matching items with a passing
    /// variant holding it; a band, the items whose lowest price lies in it.
    static func modelCounts(_ catalog: [(Item, Spec)], _ filter: Filter) -> [String: Int] {
        let matching = matching(catalog, filter)
        var counts = ["total": matching.count]
        for (item, spec) in matching {
            counts["category:\(item.category)", default: 0] += 1
            let passing = spec.variants.filter { passes($0, filter) }
            for size in Set(passing.map(\.size)) { counts["size:\(sizes[size])", default: 0] += 1 }
            for colour in Set(passing.map(\.colour)) { counts["colour:\(colours[colour])", default: 0] += 1 }
            let band = item.price.amount < 200 ? 0 : item.price.amount < 300 ? 1 : 2
            counts["band:\(band)", default: 0] += 1
        }
        return counts
    }

    /// What the database must answer: the items one of whose variants passes every variant filter
    /// at once, in the sort's keys, ties broken by id.
    static func model(_ catalog: [(Item, Spec)], _ filter: Filter, _ sort: ItemSort) -> [UUID] {
        let matching = matching(catalog, filter)
        // The mean weighed toward three stars by five reviews' worth (Migrations/0045).
        func ratingKey(_ spec: Spec) -> Int64 {
            spec.reviews == 0 ? -1 : (Int64(spec.stars) + 15) * 1_000_000 / (Int64(spec.reviews) + 5)
        }
        func before(_ a: (Item, Spec), _ b: (Item, Spec)) -> Bool {
            let idOrder = a.0.id.uuidString.lowercased() < b.0.id.uuidString.lowercased()
            switch sort {
            case .newest: return a.1.minute != b.1.minute ? a.1.minute > b.1.minute : !idOrder
            case .priceAsc: return a.0.price.amount != b.0.price.amount ? a.0.price.amount < b.0.price.amount : idOrder
            case .priceDesc: return a.0.price.amount != b.0.price.amount ? a.0.price.amount > b.0.price.amount : !idOrder
            case .rating: return ratingKey(a.1) != ratingKey(b.1) ? ratingKey(a.1) > ratingKey(b.1) : !idOrder
            case .name:
                let (x, y) = (Array(a.0.name.utf8), Array(b.0.name.utf8))
                return x != y ? x.lexicographicallyPrecedes(y) : idOrder
            }
        }
        return matching.sorted(by: before).map(\.0.id)
    }
}
