import Domain
import Foundation
import MockSupport

/// The catalog's sample items.
extension Fixtures {
    static func item(_ index: Int, stock: Int = 5) -> Item {
        Item(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 100))!,
            sku: "SKU-\(index)", name: "Item \(index)", description: "", category: "kitchen",
            price: Money(amount: 1200, currency: yen), stock: stock,
            createdAt: now.addingTimeInterval(-Double(index)), reviewCount: 0, ratingAverage: nil)
    }

    static let draft = ItemDraft(
        sku: "MUG-1", name: "Mug", description: "A mug", category: "kitchen",
        priceAmount: 1200, currency: "JPY", stock: 3)
}
