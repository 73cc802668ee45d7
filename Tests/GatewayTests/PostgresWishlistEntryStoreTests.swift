import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// The wishlist's check of an entry's item (Migrations/0039, 0042) on PostgreSQL: an archived
/// item takes no new entry, also one added while the archive runs, and an entry made before the
/// archive keeps being edited.
@Suite("PostgresWishlistEntryStore and archived items", .serialized)
struct PostgresWishlistEntryStoreTests {
    static func customer(_ db: TestDatabase) async throws -> UUID {
        let id = UUID()
        try await db.pool.query(
            "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", id, "\(id)@example.com")
        return id
    }

    static func entry(customer: UUID, item: UUID) -> WishlistEntry {
        WishlistEntry(
            id: UUID(), customerID: customer, itemID: item, note: nil, priority: 3, status: .wanted, budget: nil, createdAt: Date())
    }

    @Test func anEntryMadeBeforeTheArchiveIsStillEdited() async throws {
        try await TestDatabase.with { db in
            let customer = try await Self.customer(db)
            let (kept, other) = (try await TestRows.insertItem(db, stock: 1), try await TestRows.insertItem(db, stock: 1))
            let store = PostgresWishlistEntryStore(database: db.pool)
            let entry = try await store.insert(Self.entry(customer: customer, item: kept))
            let moving = try await store.insert(Self.entry(customer: customer, item: other))
            _ = try await PostgresItemStore(database: db.pool).archive(itemID: kept, at: Date())

            let edited = try await store.update(customerID: customer, id: entry.id, with: WishlistEntryPatch(note: "still wanted"))
            #expect(edited?.note == "still wanted", "an edit that leaves its item alone is no new entry of it")
            await #expect(throws: RecordError.missingReference(field: "item_id")) {
                try await store.update(customerID: customer, id: moving.id, with: WishlistEntryPatch(itemID: kept))
            }
        }
    }

    /// The archive is held past its lock of the item (at its delete of a cart line this
    /// transaction holds) while an entry is added: the entry waits on the item, then is refused.
    @Test func anEntryRacingItsItemsArchiveIsRefused() async throws {
        try await TestDatabase.with { db in
            let (alice, bob) = (try await Self.customer(db), try await Self.customer(db))
            let item = try await TestRows.insertItem(db, stock: 5)
            let variant = try await TestRows.variantID(of: item, db)
            try await PostgresCartStore(database: db.pool).setQuantity(customerID: alice, variantID: variant, quantity: 1)
            let items = PostgresItemStore(database: db.pool)
            let store = PostgresWishlistEntryStore(database: db.pool)

            let (archive, adding) = try await db.pool.withTransaction { connection in
                try await connection.query("SELECT 1 FROM cart_lines WHERE customer_id = $1 FOR UPDATE", alice)
                let archive = Task { try await items.archive(itemID: item, at: Date()) }
                try await db.waitForLockWaiters(1)
                let adding = Task { try await store.insert(Self.entry(customer: bob, item: item)) }
                try await db.waitForLockWaiters(2)
                return (archive, adding)
            }
            #expect(try await archive.value?.archivedAt != nil)
            await #expect(throws: RecordError.missingReference(field: "item_id")) { try await adding.value }
            let count: Int = try await db.pool.query("SELECT count(*)::int AS n FROM wishlist_entries").rows[0].decode("n")
            #expect(count == 0)
        }
    }
}
