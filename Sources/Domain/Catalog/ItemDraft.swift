import Foundation

/// A new item as the store writes it, its fields checked (`CatalogCreateInput`), with its options
/// and at least one variant, all priced in one currency.
public struct ItemDraft: Hashable, Sendable {
    public var sku: String
    public var name: String
    public var description: String
    public var category: String
    public var taxClass: TaxClass
    public var options: [ItemOption]
    public var variants: [VariantDraft]

    public init(
        sku: String, name: String, description: String, category: String, taxClass: TaxClass = .standard,
        options: [ItemOption] = [], variants: [VariantDraft]
    ) {
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.taxClass = taxClass
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
    public var taxClass: TaxClass?
    public var priceAmount: Int64?
    public var currency: String?
    /// Changes of several variants at once, in the same transaction.
    public var variants: [VariantChanges]
    /// The item's options anew: the same names, values reordered, added or (unused) dropped.
    public var options: [ItemOption]?

    public init(
        name: String? = nil, description: String? = nil, category: String? = nil, taxClass: TaxClass? = nil,
        priceAmount: Int64? = nil, currency: String? = nil, variants: [VariantChanges] = [], options: [ItemOption]? = nil
    ) {
        self.name = name
        self.description = description
        self.category = category
        self.taxClass = taxClass
        self.priceAmount = priceAmount
        self.currency = currency
        self.variants = variants
        self.options = options
    }

    public var isEmpty: Bool {
        name == nil && description == nil && category == nil && taxClass == nil && priceAmount == nil && currency == nil
            && variants.isEmpty && options == nil
    }
}

/// A change of one of the item's variants: its SKU or price (amount; the currency is the item's).
public struct VariantChanges: Hashable, Sendable {
    public var id: UUID
    public var sku: String?
    public var priceAmount: Int64?

    public init(id: UUID, sku: String? = nil, priceAmount: Int64? = nil) {
        self.id = id
        self.sku = sku
        self.priceAmount = priceAmount
    }
}

/// Which items a list shows.
public struct ItemFilter: Hashable, Sendable {
    /// Words to find in name or description.
    public var search: String?
    public var category: String?
    /// What one live variant of the item must satisfy, all at once: a price within the bounds
    /// (minor units), stock, and these values of its options (`["size": "M"]`).
    public var priceMin: Int64?
    public var priceMax: Int64?
    public var inStock: Bool
    public var options: [String: String]

    public init(
        search: String? = nil, category: String? = nil, priceMin: Int64? = nil, priceMax: Int64? = nil, inStock: Bool = false,
        options: [String: String] = [:]
    ) {
        self.search = search
        self.category = category
        self.priceMin = priceMin
        self.priceMax = priceMax
        self.inStock = inStock
        self.options = options
    }

    /// Whether a variant has to match: any of the variant-level filters is set.
    public var filtersVariants: Bool { priceMin != nil || priceMax != nil || inStock || !options.isEmpty }
}
