import Domain
import Foundation

/// The catalog's operations: browse, look up, and (for administrators) create and change items.
public struct CatalogUseCase: Sendable {
    public static let maxSearchLength = 200

    let store: any ItemStore
    let system: SystemContext

    public init(store: any ItemStore, system: SystemContext) {
        self.store = store
        self.system = system
    }

    /// One page of items, newest first.
    /// - Throws: `ValidationError` for a bad limit, cursor, search text or category;
    ///   `StoreUnavailable`.
    public func list(limit: Int?, cursor: String?, search: String?, category: String?) async throws -> Page<Item> {
        var errors = FieldErrors()
        let page = PageRequest.read(limit: limit, cursor: cursor, into: &errors)
        let search = search?.trimmingCharacters(in: .whitespacesAndNewlines)
        errors.require((search?.storedLength ?? 0) <= Self.maxSearchLength, "q", "must be at most \(Self.maxSearchLength) characters")
        errors.require(
            (category?.storedLength ?? 0) <= ItemRules.categoryMaxLength, "category",
            "must be at most \(ItemRules.categoryMaxLength) characters")
        try errors.throwIfAny()

        let filter = ItemFilter(search: search?.isEmpty == false ? search : nil, category: category)
        let found = try await store.items(matching: filter, after: page!.after, limit: page!.fetchLimit)
        return Page(fetched: found, request: page!) { PageCursor(createdAt: $0.createdAt, id: $0.id) }
    }

    /// - Throws: `CatalogError.itemNotFound`, `StoreUnavailable`.
    public func show(id: UUID) async throws -> Item {
        guard let item = try await store.item(id: id) else { throw CatalogError.itemNotFound(id) }
        return item
    }

    /// - Throws: `ValidationError`, `CatalogError.duplicateSKU`, `StoreUnavailable`.
    public func create(_ draft: ItemDraft) async throws -> Item {
        let (valid, price) = try draft.validated()
        return try await store.create(id: system.newID(), draft: valid, price: price, createdAt: system.now())
    }

    /// Applies a partial update.
    /// - Throws: `ValidationError`, `CatalogError.itemNotFound`, `StoreUnavailable`.
    public func update(id: UUID, changes: ItemChanges) async throws -> Item {
        try changes.validate()
        guard let saved = try await store.update(id: id, changes: changes) else { throw CatalogError.itemNotFound(id) }
        return saved
    }

    /// Loads the demo catalog, but only into an empty catalog.
    /// - Returns: how many items were added (0 when the catalog already had items).
    /// - Throws: `StoreUnavailable`.
    public func seedDemoCatalog(count: Int = 1200) async throws -> Int {
        let items = DemoCatalog.items(count: count)
        return try await store.insertIfEmpty(items) ? items.count : 0
    }
}
