import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

/// The cache as `serve` runs it: fed by PostgreSQL's notifications (Migrations/0027, 0028) through a
/// real listener, beside stores that change items on other connections, as other instances do;
/// and, with no listener at all, the stores of this instance forgetting what they change.
@Suite("ItemCache on real PostgreSQL")
struct ItemCacheNotificationTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    func draft(_ n: Int) -> ItemDraft {
        ItemDraft(
            sku: "SKU-\(n)", name: "Item \(n)", description: "", category: "kitchen",
            variants: [VariantDraft(id: UUID(), sku: "SKU-\(n)", price: Money(amount: 100, currency: Currency("JPY")!), stock: 10)])
    }

    /// Runs `body` with a cache that listens on `db` (no heartbeat: it never falls silent), and
    /// this instance's store over it.
    func withListeningCache(_ db: TestDatabase, _ body: (ItemCache, PostgresItemStore) async throws -> Void) async throws {
        let cache = ItemCache(capacity: 200, silenceLimit: .seconds(3600))
        let listener = PostgresListener(settings: .init(conninfo: db.url), channel: "item_changed", retryDelay: .milliseconds(50))
        let task = Task {
            await listener.run { event in
                switch event {
                case .listening: cache.setListening(true)
                case .notification(let payload): cache.hear(payload)
                case .lost: cache.setListening(false)
                }
            }
        }
        do {
            try await eventually("the cache listens") { cache.ticket() != nil }
            try await body(cache, PostgresItemStore(database: db.pool, cache: cache))
        } catch {
            task.cancel()
            await task.value
            throw error
        }
        task.cancel()
        await task.value
    }

    /// A cache that trusts itself with no listener: only this instance's own forgetting keeps it
    /// right, as when a change's notification has not arrived yet.
    func deafCache() -> ItemCache {
        let cache = ItemCache(capacity: 200, silenceLimit: .seconds(3600))
        cache.setListening(true)
        return cache
    }

    /// Reads the item until the cache keeps it: the notifications of its own creation, arriving
    /// late, make a read in flight keep nothing.
    func readUntilKept(_ id: UUID, _ store: PostgresItemStore, _ cache: ItemCache) async throws {
        try await eventually("the item is kept") {
            _ = try await store.shownItem(id: id)
            return cache.item(id: id) != nil
        }
    }

    /// Waits up to 10 s for `condition`.
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw TestSetupError("timed out waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func forgetsWhatAnotherInstanceOrAPersonChanges() async throws {
        try await TestDatabase.with { db in
            try await withListeningCache(db) { cache, store in
                // Another instance: a store of its own, on connections of its own.
                let other = PostgresItemStore(database: db.pool)
                let item = try await other.create(id: UUID(), draft: draft(1), createdAt: Self.start)
                let variant = item.variants[0].id
                try await readUntilKept(item.id, store, cache)

                _ = try await other.adjustStock(variantID: variant, delta: -3, reason: "counted", at: Self.start)
                try await eventually("the stock change is heard") { cache.item(id: item.id) == nil }
                #expect(try await store.shownItem(id: item.id)?.variants[0].stock == 7)

                try await db.pool.query("UPDATE items SET name = 'Renamed at psql' WHERE id = $1", item.id)
                try await eventually("the rename is heard") { cache.item(id: item.id) == nil }
                #expect(try await store.shownItem(id: item.id)?.name == "Renamed at psql")

                try await db.pool.query(
                    """
                    INSERT INTO item_images (id, item_id, filename, content_type, size, alt, position, created_at)
                    VALUES ($1, $2, 'a.jpg', 'image/jpeg', 1, '', 0, now())
                    """, UUID(), item.id)
                try await eventually("the new image is heard") { cache.item(id: item.id) == nil }
                #expect(try await store.shownItem(id: item.id)?.images.count == 1)

                // The image moved to another item at psql: the item it left changed too.
                let second = try await other.create(id: UUID(), draft: draft(2), createdAt: Self.start)
                try await readUntilKept(item.id, store, cache)
                try await db.pool.query("UPDATE item_images SET item_id = $2 WHERE item_id = $1", item.id, second.id)
                try await eventually("the move is heard") { cache.item(id: item.id) == nil }
                #expect(try await store.shownItem(id: item.id)?.images.isEmpty == true)
            }
        }
    }

    @Test func aStatementChangingManyItemsForgetsEverything() async throws {
        try await TestDatabase.with { db in
            try await withListeningCache(db) { cache, store in
                let kept = try await store.create(id: UUID(), draft: draft(0), createdAt: Self.start).id
                for n in 1...101 { _ = try await store.create(id: UUID(), draft: draft(n), createdAt: Self.start) }
                try await readUntilKept(kept, store, cache)
                // 101 items, the kept one not among them: only the payload `*` forgets it.
                try await db.pool.query("UPDATE item_variants SET stock = stock + 1 WHERE item_id <> $1", kept)
                try await eventually("everything is forgotten") { cache.count == 0 }
            }
        }
    }

    /// Many changes of one item's stock on this instance, each read back at once while others
    /// read it too: no read after a change has committed shows the stock from before it.
    @Test func readsOnThisInstanceShowItsOwnChangesAtOnce() async throws {
        try await TestDatabase.with(poolSize: 8) { db in
            try await withListeningCache(db) { cache, store in
                let item = try await store.create(id: UUID(), draft: draft(1), createdAt: Self.start)
                let variant = item.variants[0].id
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            for _ in 0..<25 {
                                let moved = try await store.adjustStock(variantID: variant, delta: 1, reason: "restock", at: Self.start)
                                // Another change may follow this one at once, never precede it.
                                let shown = try #require(try await store.shownItem(id: item.id)?.variants[0].stock)
                                #expect(shown >= moved?.stockAfter ?? .max, "a read after the change shows it")
                            }
                        }
                    }
                    for _ in 0..<4 {
                        group.addTask { for _ in 0..<50 { _ = try await store.shownItem(id: item.id) } }
                    }
                    try await group.waitForAll()
                }
                #expect(try await store.shownItem(id: item.id)?.variants[0].stock == 110)
            }
        }
    }

    /// Each store that changes what an item shows forgets it, with no notification to help.
    @Test func everyStoreOfThisInstanceForgetsWhatItChanges() async throws {
        try await TestDatabase.with { db in
            let cache = deafCache()
            let store = PostgresItemStore(database: db.pool, cache: cache)
            let yen = Money(amount: 100, currency: Currency("JPY")!)
            let sizes = [ItemOption(name: "size", values: ["S", "M"])]
            let tee = ItemDraft(
                sku: "TEE", name: "Tee", description: "", category: "apparel", options: sizes,
                variants: [VariantDraft(id: UUID(), sku: "TEE-S", options: [.init(name: "size", value: "S")], price: yen, stock: 10)])
            let item = try await store.create(id: UUID(), draft: tee, createdAt: Self.start)
            func shown() async throws -> Item { try #require(try await store.shownItem(id: item.id)) }
            _ = try await shown()

            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", customer, "\(customer)@example.com")
            let reviews = PostgresReviewStore(database: db.pool, itemCache: cache)
            try await reviews.insert(
                Review(id: UUID(), itemID: item.id, customerID: customer, content: "Fine", rating: 4, photos: [], createdAt: Self.start))
            #expect(try await shown().reviewCount == 1, "a review")

            let images = PostgresItemImageStore(database: db.pool, cache: cache)
            let image = UUID()
            _ = try await images.add(
                NewItemImage(
                    id: image, itemID: item.id, variantID: nil, filename: "a.jpg", format: .jpeg, size: 1, alt: "", createdAt: Self.start),
                limit: 10)
            #expect(try await shown().images.map(\.id) == [image], "an image added")
            _ = try await images.update(id: image, alt: "A mug", position: nil)
            #expect(try await shown().images.first?.alt == "A mug", "an image changed")
            _ = try await images.remove(id: image)
            #expect(try await shown().images.isEmpty, "an image removed")

            _ = try await store.updateVariant(id: item.variants[0].id, sku: nil, priceAmount: 250)
            #expect(try await shown().price.amount == 250, "a variant repriced")
            let added = VariantDraft(id: UUID(), sku: "TEE-M", options: [.init(name: "size", value: "M")], price: yen, stock: 2)
            _ = try await store.addVariant(added, to: item.id, expecting: sizes, options: sizes, at: Self.start)
            #expect(try await shown().variants.count == 2, "a variant added")
            _ = try await store.removeVariant(id: added.id, at: Self.start)
            #expect(try await shown().variants.count == 1, "a variant removed")
            _ = try await store.update(id: item.id, changes: ItemChanges(name: "Cup"))
            #expect(try await shown().name == "Cup", "an edit")
        }
    }

    /// A page lists what PostgreSQL matches, each item as the cache holds it (as an item by id
    /// shows it), and keeps the ones it read.
    @Test func aPageShowsTheItemsTheCacheHolds() async throws {
        try await TestDatabase.with { db in
            let cache = deafCache()
            let store = PostgresItemStore(database: db.pool, cache: cache)
            let first = try await store.create(id: UUID(), draft: draft(1), createdAt: Self.start)
            let second = try await store.create(id: UUID(), draft: draft(2), createdAt: Self.start)
            _ = try await store.shownItem(id: first.id)
            // Another instance renames both; this cache, which hears nothing, still holds the first.
            let other = PostgresItemStore(database: db.pool)
            _ = try await other.update(id: first.id, changes: ItemChanges(name: "First, renamed"))
            _ = try await other.update(id: second.id, changes: ItemChanges(name: "Second, renamed"))
            let page = try await store.items(matching: ItemFilter(), sort: .newest, after: nil, limit: 10)
            #expect(Set(page.map(\.item.name)) == ["Item 1", "Second, renamed"])
            #expect(cache.item(id: second.id)?.name == "Second, renamed", "kept from the page")
            // Without a cache, the rows as they are.
            let rows = try await other.items(matching: ItemFilter(), sort: .newest, after: nil, limit: 10)
            #expect(Set(rows.map(\.item.name)) == ["First, renamed", "Second, renamed"])
        }
    }
}
