/// An item as clients see it.
public struct ItemModel: Codable, Hashable, Sendable {
    public let id: String
    public let sku: String
    public let name: String
    public let description: String
    public let category: String
    public let price: MoneyModel
    public let stock: Int
    public let createdAt: String
    public let ratingAverage: Double?
    public let reviewCount: Int

    enum CodingKeys: String, CodingKey {
        case id, sku, name, description, category, price, stock
        case createdAt = "created_at"
        case ratingAverage = "rating_average"
        case reviewCount = "review_count"
    }

    /// Writes every member; `rating_average` is null before the first review.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sku, forKey: .sku)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(category, forKey: .category)
        try container.encode(price, forKey: .price)
        try container.encode(stock, forKey: .stock)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(ratingAverage, forKey: .ratingAverage)
        try container.encode(reviewCount, forKey: .reviewCount)
    }
}
