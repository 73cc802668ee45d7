import Domain

/// Carts to response models.
public enum CartTranslator {
    /// - Throws: `MoneyError` when totals cannot be computed exactly.
    public static func model(_ cart: Cart) throws -> CartModel {
        CartModel(
            lines: try cart.lines.map(LineModel.init),
            subtotal: MoneyModel(try cart.subtotal()),
            itemCount: cart.itemCount,
            unavailableItemIDs: cart.unavailableLines.map { $0.itemID.uuidString.lowercased() })
    }
}
