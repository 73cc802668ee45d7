/// The price bands facets count items in, by their lowest price in minor units: each bound
/// starts a band, the first starts at 0 and the last has no end. Chosen for yen prices
/// (¥1,000, ¥3,000, ¥5,000, ¥10,000, ¥30,000).
public enum PriceBands {
    public static let bounds: [Int64] = [1_000, 3_000, 5_000, 10_000, 30_000]
}
