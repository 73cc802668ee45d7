import Foundation

/// Where items live. Implemented by `PostgresItemStore`; mocked in use-case tests.
public protocol ItemStore: Sendable {
    /// Items matching `filter` in the order `sort`, strictly after `cursor` (of that sort), at
    /// most `limit` of them, each with the cursor after it: shown, as `shownItem(id:)` shows them.
    /// - Throws: `StoreUnavailable` when the store cannot be reached.
    func items(matching filter: ItemFilter, sort: ItemSort, after cursor: ItemCursor?, limit: Int) async throws
        -> [(item: Item, cursor: ItemCursor)]

    /// How many items match `filter`, and how many match each refinement of it: per category,
    /// per option value (one live variant holding it and meeting the filter), per price band
    /// (`bands` are the bands' starts after 0; by the item's lowest price), all in one statement
    /// so the counts agree with each other.
    /// - Throws: `StoreUnavailable`.
    func facets(matching filter: ItemFilter, bands: [Int64]) async throws -> ItemFacets

    /// The item with this id, or `nil`.
    /// - Throws: `StoreUnavailable`.
    func item(id: UUID) async throws -> Item?

    /// The item with this id as `GET /v1/items/{id}` shows it, or `nil`: a store may answer from
    /// a copy it keeps, which shows every change this instance made and the others' a moment after
    /// they commit. Whatever decides anything (an edit, a cart, a checkout) reads `item(id:)`.
    /// - Throws: `StoreUnavailable`.
    func shownItem(id: UUID) async throws -> Item?

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
    /// The variants `changes` names change in the same transaction, or none does.
    /// - Throws: `CatalogError.itemHasVariants` for a price change of an item with several
    ///   variants, `.unknownVariant`, `.duplicateSKU`, `StoreUnavailable`.
    func update(id: UUID, changes: ItemChanges) async throws -> Item?

    /// Adds a live variant to an item whose options are still `expected`, setting them to
    /// `options` (which may list the variant's new values), in one transaction; `nil` when no
    /// such item. Its stock is recorded as its first movement.
    /// - Throws: `CatalogError.duplicateSKU`, `.duplicateCombination`, `.itemChanged`,
    ///   `StoreUnavailable`.
    func addVariant(_ variant: VariantDraft, to itemID: UUID, expecting expected: [ItemOption], options: [ItemOption], at: Date)
        async throws -> Item?

    /// Changes a live variant's SKU or price (and its item's lowest price with it); `nil` when no
    /// such variant.
    /// - Throws: `CatalogError.duplicateSKU`, `StoreUnavailable`.
    func updateVariant(id: UUID, sku: String?, priceAmount: Int64?) async throws -> Item?

    /// Takes an item off sale (`archivedAt`: it leaves every list, page, facet and feed, and every
    /// cart, where no line of it is added meanwhile; one archived already keeps its first time)
    /// or, with `nil`, puts it back. `nil` when no such item.
    /// - Throws: `StoreUnavailable`.
    func archive(itemID: UUID, at archivedAt: Date?) async throws -> Item?

    /// Takes a variant out of the catalog and out of every cart; its row stays for the orders
    /// and the stock history that name it. `nil` when no such live variant.
    /// - Throws: `CatalogError.lastVariant` for an item's last live variant, `StoreUnavailable`.
    func removeVariant(id: UUID, at: Date) async throws -> Item?

    /// Changes a live variant's stock by `delta` in one statement with its movement; `nil` when
    /// no such variant.
    /// - Throws: `CatalogError.insufficientStock` when it would leave less than nothing,
    ///   `StoreUnavailable`.
    func adjustStock(variantID: UUID, delta: Int, reason: String, at: Date) async throws -> StockMovement?

    /// A variant's stock movements (a removed variant's too), newest first, strictly before the
    /// movement `before`, at most `limit`; `nil` when no such variant.
    /// - Throws: `StoreUnavailable`.
    func stockMovements(variantID: UUID, before: Int64?, limit: Int) async throws -> [StockMovement]?

    /// Inserts `items` with their variants in one transaction if the catalog holds no item yet, atomically with
    /// that check (two seeders at once insert once).
    /// - Returns: whether it inserted.
    /// - Throws: `StoreUnavailable`.
    func insertIfEmpty(_ items: [Item]) async throws -> Bool
}

extension ItemStore {
    /// A store that keeps no copies shows the item as it is.
    public func shownItem(id: UUID) async throws -> Item? {
        try await item(id: id)
    }
}
