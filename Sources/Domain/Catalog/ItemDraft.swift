import Foundation

/// A new item as the store writes it, its fields checked (`CatalogCreateInput`), with its options
/// and at least one variant, all priced in one currency.
public struct ItemDraft: Hashable, Sendable {
    public var sku: String
    public var name: String
    public var description: String
    public var category: String
    public var options: [ItemOption]
    public var variants: [VariantDraft]

    public init(
        sku: String, name: String, description: String, category: String, options: [ItemOption] = [],
        variants: [VariantDraft]
    ) {
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.options = options
        self.variants = variants
    }
}

/// A new variant: its SKU, its value of each of the item's options, price and stock.
public struct VariantDraft: Hashable, Sendable {
    public var id: UUID
    public var sku: String
    public var options: [VariantOption]
    public var price: Money
    public var stock: Int

    public init(id: UUID, sku: String, options: [VariantOption] = [], price: Money, stock: Int) {
        self.id = id
        self.sku = sku
        self.options = options
        self.price = price
        self.stock = stock
    }
}

/// A partial update: `nil` leaves a field as it is. A price belongs to variants: an item with one
/// variant has it changed through its item; an item with several refuses it. The currency is the
/// item's and all its variants'. Stock is never set, only changed by a delta (`adjustStock`).
public struct ItemChanges: Hashable, Sendable {
    public var name: String?
    public var description: String?
    public var category: String?
    public var priceAmount: Int64?
    public var currency: String?

    public init(
        name: String? = nil, description: String? = nil, category: String? = nil, priceAmount: Int64? = nil, currency: String? = nil
    ) {
        self.name = name
        self.description = description
        self.category = category
        self.priceAmount = priceAmount
        self.currency = currency
    }

    public var isEmpty: Bool { name == nil && description == nil && category == nil && priceAmount == nil && currency == nil }
}

/// Which items a list shows.
public struct ItemFilter: Hashable, Sendable {
    /// Words to find in name or description.
    public var search: String?
    public var category: String?

    public init(search: String? = nil, category: String? = nil) {
        self.search = search
        self.category = category
    }
}
