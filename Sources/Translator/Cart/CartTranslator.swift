import Domain

/// Carts to response models.
public enum CartTranslator {
    /// - Throws: `MoneyError` when totals cannot be computed exactly.
    public static func model(_ cart: Cart) throws -> CartModel {
        CartModel(
            lines: try cart.lines.map { line in
                CartLineModel(
                    itemId: line.itemID.uuidString.lowercased(), name: line.name, unitPrice: MoneyModel(line.unitPrice),
                    quantity: line.quantity, lineTotal: MoneyModel(try line.lineTotal()))
            },
            subtotal: MoneyModel(try cart.subtotal()),
            itemCount: cart.itemCount)
    }
}
