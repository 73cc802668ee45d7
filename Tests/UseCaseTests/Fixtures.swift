import Domain
import Foundation
import MockSupport

/// The catalog's sample items.
extension Fixtures {
    /// Item `index` with one variant, whose id differs from the item's.
    static func item(_ index: Int, stock: Int = 5, price: Money? = nil) -> Item {
        let price = price ?? Money(amount: 1200, currency: yen)
        return Item(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 100))!,
            sku: "SKU-\(index)", name: "Item \(index)", description: "", category: "kitchen", taxClass: .standard, price: price,
            stock: stock,
            createdAt: now.addingTimeInterval(-Double(index)), reviewCount: 0, ratingAverage: nil, options: [],
            variants: [
                Variant(
                    id: UUID(uuidString: String(format: "00000000-0000-4000-9000-%012d", index + 100))!, sku: "SKU-\(index)",
                    options: [], price: price, stock: stock)
            ], images: [], thumbnailURL: nil, archivedAt: nil)
    }

    /// A T-shirt in sizes S and M, each with `stock` units.
    static func shirt(stock: Int = 5) -> Item {
        let price = Money(amount: 2500, currency: yen)
        let variants = ["S", "M"].enumerated().map { index, size in
            Variant(
                id: UUID(uuidString: String(format: "00000000-0000-4000-a000-%012d", index))!, sku: "TEE-\(size)",
                options: [VariantOption(name: "size", value: size)], price: price, stock: stock)
        }
        return Item(
            id: UUID(uuidString: "00000000-0000-4000-a000-000000000100")!, sku: "TEE", name: "T-shirt", description: "",
            category: "apparel", taxClass: .standard, price: price, stock: 2 * stock, createdAt: now, reviewCount: 0, ratingAverage: nil,
            options: [ItemOption(name: "size", values: ["S", "M"])], variants: variants, images: [], thumbnailURL: nil, archivedAt: nil)
    }

    /// What `CatalogUseCaseTests.createInput` becomes: one variant with the item's SKU, price and
    /// stock (both ids are the container's fixed one).
    static let draft = ItemDraft(
        sku: "MUG-1", name: "Mug", description: "A mug", category: "kitchen",
        variants: [VariantDraft(id: fixedID, sku: "MUG-1", price: Money(amount: 1200, currency: yen), stock: 3)])
}
