import Foundation

/// Where items live. Implemented by `PostgresItemStore`; mocked in use-case tests.
public protocol ItemStore: Sendable {
    /// Items matching `filter`, newest first, strictly after `cursor`, at most `limit` of them.
    /// - Throws: `StoreUnavailable` when the store cannot be reached.
    func items(matching filter: ItemFilter, after cursor: PageCursor?, limit: Int) async throws -> [Item]

    /// The item with this id, or `nil`.
    /// - Throws: `StoreUnavailable`.
    func item(id: UUID) async throws -> Item?

    /// The item one of whose live variants has this id, or `nil`.
    /// - Throws: `StoreUnavailable`.
    func item(variantID: UUID) async throws -> Item?

    /// Stores a new item with its variants, each variant's stock recorded as its first stock
    /// movement.
    /// - Throws: `CatalogError.duplicateSKU` when the item's or a variant's SKU is taken,
    ///   `StoreUnavailable`.
    func create(id: UUID, draft: ItemDraft, createdAt: Date) async throws -> Item

    /// Changes only the fields `changes` sets, in one transaction, so a concurrent change of
    /// another field (stock taken by a checkout) is never overwritten; `nil` when no such item.
    /// - Throws: `CatalogError.itemHasVariants` for a price or stock change of an item with
    ///   several variants, `StoreUnavailable`.
    func update(id: UUID, changes: ItemChanges) async throws -> Item?

    /// Inserts `items` with their variants in one transaction if the catalog holds no item yet, atomically with
    /// that check (two seeders at once insert once).
    /// - Returns: whether it inserted.
    /// - Throws: `StoreUnavailable`.
    func insertIfEmpty(_ items: [Item]) async throws -> Bool
}
