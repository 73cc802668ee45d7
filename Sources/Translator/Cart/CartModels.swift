/// A cart as clients see it.
public struct CartModel: Codable, Hashable, Sendable {
    public let lines: [LineModel]
    public let subtotal: MoneyModel
    public let itemCount: Int

    enum CodingKeys: String, CodingKey {
        case lines, subtotal
        case itemCount = "item_count"
    }
}
