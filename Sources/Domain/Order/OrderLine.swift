import Foundation

/// A line of a placed order: the variant, its names and values, its tax class and its unit price
/// as they were at checkout, whatever the catalog or the cart says since.
public struct OrderLine: Hashable, Sendable {
    public let itemID: UUID
    public let variantID: UUID
    public let sku: String
    public let name: String
    /// The variant's value of each of its item's options (none for an item without options).
    public let options: [VariantOption]
    public let taxClass: TaxClass
    public let unitPrice: Money
    public let quantity: Int

    public init(
        itemID: UUID, variantID: UUID, sku: String, name: String, options: [VariantOption] = [], taxClass: TaxClass = .standard,
        unitPrice: Money, quantity: Int
    ) {
        self.itemID = itemID
        self.variantID = variantID
        self.sku = sku
        self.name = name
        self.options = options
        self.taxClass = taxClass
        self.unitPrice = unitPrice
        self.quantity = quantity
    }

    /// The line's total. A line is at most 99 units of a price of at most 10^12 minor units
    /// (Specs/Cart.yml, Specs/Catalog.yml), which the checkout checked, so the product cannot
    /// overflow.
    public var lineTotal: Money { Money(amount: unitPrice.amount * Int64(quantity), currency: unitPrice.currency) }
}
