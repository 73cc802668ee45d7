import Domain

/// A priced line, as carts and orders show it:
/// `{"item_id","name","unit_price","quantity","line_total"}`.
public struct LineModel: Codable, Hashable, Sendable {
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

    /// - Throws: `MoneyError` when the line total cannot be computed exactly.
    public init(_ line: CartLine) throws {
        itemId = line.itemID.uuidString.lowercased()
        name = line.name
        unitPrice = MoneyModel(line.unitPrice)
        quantity = line.quantity
        lineTotal = MoneyModel(try line.lineTotal())
    }
}
