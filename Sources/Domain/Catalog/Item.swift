import Foundation

/// A product the shop sells.
public struct Item: Hashable, Sendable {
    public let id: UUID
    public let sku: String
    public var name: String
    public var description: String
    public var category: String
    public var price: Money
    /// Units on hand; never below zero (a database CHECK holds this under concurrency).
    public var stock: Int
    public let createdAt: Date
    /// How many reviews the item has; kept with each review in one transaction.
    public var reviewCount: Int
    /// The mean rating to two decimals, `nil` before the first review.
    public var ratingAverage: Double?

    public init(
        id: UUID, sku: String, name: String, description: String, category: String, price: Money,
        stock: Int, createdAt: Date, reviewCount: Int = 0, ratingAverage: Double? = nil
    ) {
        self.id = id
        self.sku = sku
        self.name = name
        self.description = description
        self.category = category
        self.price = price
        self.stock = stock
        self.createdAt = createdAt
        self.reviewCount = reviewCount
        self.ratingAverage = ratingAverage
    }
}

/// What an administrator sends to create an item, before it is checked.
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
