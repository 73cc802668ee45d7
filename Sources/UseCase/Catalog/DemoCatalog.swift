import Domain
import Foundation

/// A deterministic demo catalog: the same items, ids and timestamps on every machine, so demos,
/// benchmarks and bug reports talk about the same data. Items come in variants by category (a
/// T-shirt in 3 sizes and 3 colours, a mug in 4 colours, a book alone): about 3.75 variants per
/// item, so `storefront seed --items 50000` makes some 190,000.
public enum DemoCatalog {
    static let categories: [(name: String, nouns: [String], basePrice: Int64, options: [ItemOption])] = [
        ("kitchen", ["Mug", "Kettle", "Teapot", "Knife", "Cutting Board", "Bowl"], 1200, [colour(["white", "black", "blue", "red"])]),
        ("stationery", ["Notebook", "Fountain Pen", "Pencil Case", "Planner", "Ink Bottle"], 400, [colour(["black", "blue"])]),
        (
            "apparel", ["T-Shirt", "Hoodie", "Cap", "Scarf", "Socks", "Jacket"], 2500,
            [size(["S", "M", "L"]), colour(["navy", "white", "grey"])]
        ),
        ("outdoor", ["Tent", "Lantern", "Water Bottle", "Backpack", "Camp Chair"], 3800, [size(["S", "L"])]),
        ("electronics", ["Headphones", "Charger", "Speaker", "Keyboard", "Mouse"], 4800, [colour(["black", "white"])]),
        ("books", ["Cookbook", "Novel", "Field Guide", "Atlas", "Poetry Collection"], 1600, []),
        ("toys", ["Puzzle", "Kite", "Building Blocks", "Plush Bear", "Yo-yo"], 900, []),
        (
            "home", ["Lamp", "Cushion", "Vase", "Clock", "Rug", "Candle"], 2200,
            [size(["S", "M", "L"]), colour(["grey", "white", "green"])]
        ),
    ]
    static let adjectives = [
        "Classic", "Compact", "Deluxe", "Everyday", "Handmade", "Indigo", "Linen",
        "Matte", "Nordic", "Oak", "Pastel", "Rustic", "Slate", "Travel", "Vintage",
    ]
    /// 2026-01-01T00:00:00Z; item n is created n minutes later.
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)

    static func size(_ values: [String]) -> ItemOption { ItemOption(name: "size", values: values) }
    static func colour(_ values: [String]) -> ItemOption { ItemOption(name: "colour", values: values) }

    /// `count` items spread over eight categories, priced in `currency` (amounts in its minor
    /// units, chosen for yen: 1,200 is ¥1,200 or $12.00).
    public static func items(count: Int = 1200, currency: Currency) -> [Item] {
        var random = SplitMix64(seed: 0x5EED_CA7A_1060)
        // Variants draw from streams of their own: the items' ids stay those of the catalog
        // before variants.
        var variantIDs = SplitMix64(seed: 0x5EED_0A41_A47)
        var variantStock = SplitMix64(seed: 0x5EED_570C)
        return (0..<count).map { index in
            let category = categories[index % categories.count]
            let noun = category.nouns[Int(random.next() % UInt64(category.nouns.count))]
            let adjective = adjectives[Int(random.next() % UInt64(adjectives.count))]
            let price = category.basePrice + Int64(random.next() % 40) * 100
            let sku = String(format: "DEMO-%05d", index + 1)
            let id = random.uuid()
            _ = random.next()  // the stock items had before variants: kept so the ids that follow stay the same
            let variants = combinations(category.options).map { choice in
                // A larger size costs 200 more per step.
                let sizes = category.options.first { $0.name == "size" }?.values ?? []
                let step = choice.first { $0.name == "size" }.flatMap { sizes.firstIndex(of: $0.value) } ?? 0
                let suffix = choice.map { "-" + $0.value.uppercased() }.joined()
                return Variant(
                    id: variantIDs.uuid(), sku: sku + suffix, options: choice,
                    price: Money(amount: price + Int64(step) * 200, currency: currency),
                    stock: Int(variantStock.next() % 60))
            }
            return Item(
                id: id,
                sku: sku,
                name: "\(adjective) \(noun)",
                description:
                    "\("AEIOU".contains(adjective.first!) ? "An" : "A") \(adjective.lowercased()) \(noun.lowercased()) from our \(category.name) range, demo item \(index + 1).",
                category: category.name,
                taxClass: .standard,
                price: variants.map(\.price).min { $0.amount < $1.amount }!,
                stock: variants.reduce(0) { $0 + $1.stock },
                createdAt: epoch.addingTimeInterval(Double(index) * 60), reviewCount: 0, ratingAverage: nil,
                options: category.options, variants: variants, images: [], thumbnailURL: nil, archivedAt: nil)
        }
    }

    /// Every combination of one value of each option, in the options' order (one empty choice
    /// for no options).
    static func combinations(_ options: [ItemOption]) -> [[VariantOption]] {
        options.reduce([[]]) { choices, option in
            choices.flatMap { choice in option.values.map { choice + [VariantOption(name: option.name, value: $0)] } }
        }
    }
}

/// A small, fast, seedable generator (Steele, Lea, Flood 2014): the demo data must not depend
/// on the platform's random source.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A version-4 UUID from the stream.
    mutating func uuid() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let value = next()
            for index in 0..<8 { bytes[half * 8 + index] = UInt8(truncatingIfNeeded: value >> (index * 8)) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
