import Domain
import Foundation
import MockSupport

/// An `ItemStore` that answers what the test set and records every call. A call the test did not
/// stub fails loudly instead of returning a made-up value.
final class MockItemStore: ItemStore, Sendable {
    enum Call: Equatable, Sendable {
        case items(ItemFilter, ItemSort, ItemCursor?, Int)
        case facets(ItemFilter, [Int64])
        case item(UUID)
        case itemOfVariant(UUID)
        case create(UUID, ItemDraft, Date)
        case update(UUID, ItemChanges)
        case addVariant(VariantDraft, UUID, [ItemOption])
        case updateVariant(UUID, String?, Int64?)
        case removeVariant(UUID)
        case archive(UUID, Date?)
        case adjustStock(UUID, Int, String)
        case stockMovements(UUID, Int64?, Int)
        case insertIfEmpty(Int)
    }

    struct Stubs: Sendable {
        var items: (@Sendable (ItemFilter, ItemSort, ItemCursor?, Int) throws -> [(item: Item, cursor: ItemCursor)])?
        var facets: (@Sendable (ItemFilter, [Int64]) throws -> ItemFacets)?
        var item: (@Sendable (UUID) throws -> Item?)?
        var itemOfVariant: (@Sendable (UUID) throws -> Item?)?
        var create: (@Sendable (UUID, ItemDraft, Date) throws -> Item)?
        var update: (@Sendable (UUID, ItemChanges) throws -> Item?)?
        var addVariant: (@Sendable (VariantDraft, UUID, [ItemOption], [ItemOption]) throws -> Item?)?
        var updateVariant: (@Sendable (UUID, String?, Int64?) throws -> Item?)?
        var removeVariant: (@Sendable (UUID) throws -> Item?)?
        var archive: (@Sendable (UUID, Date?) throws -> Item?)?
        var adjustStock: (@Sendable (UUID, Int, String) throws -> StockMovement?)?
        var stockMovements: (@Sendable (UUID, Int64?, Int) throws -> [StockMovement]?)?
        var insertIfEmpty: (@Sendable ([Item]) throws -> Bool)?
    }

    private let recorder: MockRecorder<Call, Stubs>

    init(_ configure: (inout Stubs) -> Void = { _ in }) {
        recorder = MockRecorder(Stubs(), configure)
    }

    var calls: [Call] { recorder.calls }

    private func record<T: Sendable>(_ call: Call, _ stub: KeyPath<Stubs, T?>) throws -> T {
        try recorder.record(call, stub)
    }

    func items(matching filter: ItemFilter, sort: ItemSort, after cursor: ItemCursor?, limit: Int) async throws
        -> [(item: Item, cursor: ItemCursor)]
    {
        try record(.items(filter, sort, cursor, limit), \.items)(filter, sort, cursor, limit)
    }

    func facets(matching filter: ItemFilter, bands: [Int64]) async throws -> ItemFacets {
        try record(.facets(filter, bands), \.facets)(filter, bands)
    }

    func item(id: UUID) async throws -> Item? {
        try record(.item(id), \.item)(id)
    }

    func item(variantID: UUID) async throws -> Item? {
        try record(.itemOfVariant(variantID), \.itemOfVariant)(variantID)
    }

    func create(id: UUID, draft: ItemDraft, createdAt: Date) async throws -> Item {
        try record(.create(id, draft, createdAt), \.create)(id, draft, createdAt)
    }

    func update(id: UUID, changes: ItemChanges) async throws -> Item? {
        try record(.update(id, changes), \.update)(id, changes)
    }

    func addVariant(_ variant: VariantDraft, to itemID: UUID, expecting expected: [ItemOption], options: [ItemOption], at: Date)
        async throws -> Item?
    {
        try record(.addVariant(variant, itemID, options), \.addVariant)(variant, itemID, expected, options)
    }

    func updateVariant(id: UUID, sku: String?, priceAmount: Int64?) async throws -> Item? {
        try record(.updateVariant(id, sku, priceAmount), \.updateVariant)(id, sku, priceAmount)
    }

    func archive(itemID: UUID, at archivedAt: Date?) async throws -> Item? {
        try record(.archive(itemID, archivedAt), \.archive)(itemID, archivedAt)
    }

    func removeVariant(id: UUID, at: Date) async throws -> Item? {
        try record(.removeVariant(id), \.removeVariant)(id)
    }

    func adjustStock(variantID: UUID, delta: Int, reason: String, at: Date) async throws -> StockMovement? {
        try record(.adjustStock(variantID, delta, reason), \.adjustStock)(variantID, delta, reason)
    }

    func stockMovements(variantID: UUID, before: Int64?, limit: Int) async throws -> [StockMovement]? {
        try record(.stockMovements(variantID, before, limit), \.stockMovements)(variantID, before, limit)
    }

    func insertIfEmpty(_ items: [Item]) async throws -> Bool {
        try record(.insertIfEmpty(items.count), \.insertIfEmpty)(items)
    }
}
