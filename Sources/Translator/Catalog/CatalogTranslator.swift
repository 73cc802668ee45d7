import Domain

/// Catalog entities to response models.
public enum CatalogTranslator {
    public static func model(_ item: Item) -> ItemModel {
        ItemModel(
            id: item.id.uuidString.lowercased(),
            sku: item.sku,
            name: item.name,
            description: item.description,
            category: item.category,
            price: MoneyModel(item.price),
            stock: item.stock,
            createdAt: Timestamp.rfc3339(item.createdAt),
            ratingAverage: item.ratingAverage,
            reviewCount: item.reviewCount
        )
    }

    public static func model(_ page: Page<Item>) -> PageModel<ItemModel> {
        PageModel(data: page.items.map(model), nextCursor: page.nextCursor?.token)
    }
}
