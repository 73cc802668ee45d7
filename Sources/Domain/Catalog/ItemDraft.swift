import Foundation

/// A new item as the store writes it, its fields checked (`CatalogCreateInput`).
public struct ItemDraft: Hashable, Sendable {
    public var sku: String
    public var name: String
    public var description: String
    public var category: String
    public var priceAmount: Int64
    public var currency: String
    public var stock: Int

    public init(
        sku: String, name: String, description: String, category: String, priceAmount: Int64,
        currency: String, stock: Int
    ) {
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.priceAmount = priceAmount
        self.currency = currency
        self.stock = stock
    }
}

/// A partial update: `nil` leaves a field as it is.
public struct ItemChanges: Hashable, Sendable {
    public var name: String?
    public var description: String?
    public var category: String?
    public var priceAmount: Int64?
    public var currency: String?
    public var stock: Int?

    public init(
        name: String? = nil, description: String? = nil, category: String? = nil,
        priceAmount: Int64? = nil, currency: String? = nil, stock: Int? = nil
    ) {
        self.name = name
        self.description = description
        self.category = category
        self.priceAmount = priceAmount
        self.currency = currency
        self.stock = stock
    }

    public var isEmpty: Bool {
        name == nil && description == nil && category == nil && priceAmount == nil && currency == nil
            && stock == nil
    }
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
