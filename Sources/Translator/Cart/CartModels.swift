/// A cart as clients see it.
public struct CartModel: Codable, Hashable, Sendable {
    public let lines: [LineModel]
    public let subtotal: MoneyModel
    public let itemCount: Int
    /// Lines that cannot be bought now (the item is no longer priced in the cart's currency):
    /// left out of the subtotal, refused at checkout until removed.
    public let unavailableItemIDs: [String]

    enum CodingKeys: String, CodingKey {
        case lines, subtotal
        case itemCount = "item_count"
        case unavailableItemIDs = "unavailable_item_ids"
    }
}
