import Domain

/// `{"new_arrivals": [item...], "top_rated": [item...], "categories": [{"name","item_count"}]}`.
public struct HomeModel: Encodable, Sendable {
    public let newArrivals: [ItemModel]
    public let topRated: [ItemModel]
    public let categories: [CategoryCountModel]

    enum CodingKeys: String, CodingKey {
        case categories
        case newArrivals = "new_arrivals"
        case topRated = "top_rated"
    }
}

public struct CategoryCountModel: Encodable, Hashable, Sendable {
    public let name: String
    public let itemCount: Int

    enum CodingKeys: String, CodingKey {
        case name
        case itemCount = "item_count"
    }
}

/// The home feed to its response model; items look as they do in the catalog.
public enum HomeTranslator {
    public static func model(_ feed: HomeFeed) -> HomeModel {
        HomeModel(
            newArrivals: feed.newArrivals.map(CatalogTranslator.model),
            topRated: feed.topRated.map(CatalogTranslator.model),
            categories: feed.categories.map { CategoryCountModel(name: $0.name, itemCount: $0.itemCount) })
    }
}
