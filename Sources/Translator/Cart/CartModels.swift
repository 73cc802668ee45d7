/// A cart as clients see it.
public struct CartModel: Codable, Hashable, Sendable {
    public let lines: [CartLineModel]
    public let subtotal: MoneyModel
    public let itemCount: Int

    enum CodingKeys: String, CodingKey {
        case lines, subtotal
        case itemCount = "item_count"
    }
}

public struct CartLineModel: Codable, Hashable, Sendable {
    public let itemId: String
    public let name: String
    public let unitPrice: MoneyModel
    public let quantity: Int
    public let lineTotal: MoneyModel

    enum CodingKeys: String, CodingKey {
        case name, quantity
        case itemId = "item_id"
        case unitPrice = "unit_price"
        case lineTotal = "line_total"
    }
}
