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

    enum CodingKeys: String, CodingKey {
        case id, sku, name, description, category, price, stock
        case createdAt = "created_at"
    }
}
