import Foundation

/// Where items' images are recorded (their files are at the media API). Implemented by
/// `PostgresItemImageStore`; mocked in use-case tests.
public protocol ItemImageStore: Sendable {
    /// Records an image after the item's others, for its variant when `variantID` is set, unless
    /// the item is gone, the variant is not one of its live ones, or `limit` images are there
    /// already (the checks and the insert under the item's row lock, so two uploads cannot both
    /// take the last place).
    /// - Throws: `StoreUnavailable`.
    func add(_ image: NewItemImage, limit: Int) async throws -> ItemImageAddition

    /// Changes an image's alt text or moves it to `position` among its item's images (the others
    /// keep their order); `nil` when no such image.
    /// - Throws: `StoreUnavailable`.
    func update(id: UUID, alt: String?, position: Int?) async throws -> ItemImage?

    /// Deletes an image's row.
    /// - Returns: the file name it had at the media API, `nil` when no such image.
    /// - Throws: `StoreUnavailable`.
    func remove(id: UUID) async throws -> String?

    /// How many images the item has; `nil` when no such item.
    /// - Throws: `StoreUnavailable`.
    func count(itemID: UUID) async throws -> Int?
}

/// An image the media API has stored, to record.
public struct NewItemImage: Hashable, Sendable {
    public let id: UUID
    public let itemID: UUID
    public let variantID: UUID?
    public let filename: String
    public let format: PhotoFormat
    public let size: Int
    public let alt: String
    public let createdAt: Date

    public init(
        id: UUID, itemID: UUID, variantID: UUID?, filename: String, format: PhotoFormat, size: Int, alt: String, createdAt: Date
    ) {
        self.id = id
        self.itemID = itemID
        self.variantID = variantID
        self.filename = filename
        self.format = format
        self.size = size
        self.alt = alt
        self.createdAt = createdAt
    }
}

/// What recording an image came to.
public enum ItemImageAddition: Hashable, Sendable {
    case added(ItemImage)
    case itemNotFound
    /// The image named this variant, which is not one of the item's live variants.
    case notAVariantOfTheItem(variantID: UUID)
    case full
}
