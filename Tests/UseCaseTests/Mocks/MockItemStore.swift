import Domain
import Foundation
import MockSupport

/// An `ItemStore` that answers what the test set and records every call. A call the test did not
/// stub fails loudly instead of returning a made-up value.
final class MockItemStore: ItemStore, Sendable {
    enum Call: Equatable, Sendable {
        case items(ItemFilter, PageCursor?, Int)
        case item(UUID)
        case itemOfVariant(UUID)
        case create(UUID, ItemDraft, Date)
        case update(UUID, ItemChanges)
        case insertIfEmpty(Int)
    }

    struct Stubs: Sendable {
        var items: (@Sendable (ItemFilter, PageCursor?, Int) throws -> [Item])?
        var item: (@Sendable (UUID) throws -> Item?)?
        var itemOfVariant: (@Sendable (UUID) throws -> Item?)?
        var create: (@Sendable (UUID, ItemDraft, Date) throws -> Item)?
        var update: (@Sendable (UUID, ItemChanges) throws -> Item?)?
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

    func items(matching filter: ItemFilter, after cursor: PageCursor?, limit: Int) async throws -> [Item] {
        try record(.items(filter, cursor, limit), \.items)(filter, cursor, limit)
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

    func insertIfEmpty(_ items: [Item]) async throws -> Bool {
        try record(.insertIfEmpty(items.count), \.insertIfEmpty)(items)
    }
}
