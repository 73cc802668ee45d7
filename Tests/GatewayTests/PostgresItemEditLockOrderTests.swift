import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

/// A staff edit of several variants locks them in id order, as a checkout does: edits listing
/// them in another order and checkouts each held a variant the other waited for, and the lock
/// timeout answered both 503 (attacker).
@Suite("A staff edit's variant locks on real PostgreSQL")
struct PostgresItemEditLockOrderTests {
    @Test func anEditTakesTheVariantsInTheOrderCheckoutsDo() async throws {
        try await TestDatabase.with { db in
            let yen = Currency("JPY")!
            let variants = (0..<2).map { n in
                VariantDraft(
                    id: UUID(), sku: "V\(n)", options: [.init(name: "size", value: "\(n)")], price: Money(amount: 100, currency: yen),
                    stock: 5)
            }
            let store = PostgresItemStore(database: db.pool)
            let item = try await store.create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "EDIT", name: "Edited", description: "", category: "c", options: [ItemOption(name: "size", values: ["0", "1"])],
                    variants: variants),
                createdAt: Date())
            let ids = variants.map(\.id).sorted { $0.lowercasedText < $1.lowercasedText }
            let edit = try await db.pool.withTransaction(maxAttempts: 1) { connection in
                // A checkout's order: the lower id first.
                try await connection.query("SET LOCAL lock_timeout = 500")
                try await connection.query("SELECT 1 FROM item_variants WHERE id = $1 FOR NO KEY UPDATE", ids[0])
                let edit = Task {
                    try await store.update(
                        id: item.id,
                        changes: ItemChanges(variants: [
                            VariantChanges(id: ids[1], sku: "V-HIGH"), VariantChanges(id: ids[0], sku: "V-LOW"),
                        ]))
                }
                try await Task.sleep(for: .milliseconds(300))
                // The edit waits for the lower id, holding nothing the checkout then needs.
                try await connection.query("SELECT 1 FROM item_variants WHERE id = $1 FOR NO KEY UPDATE", ids[1])
                return edit
            }
            let edited = try #require(try await edit.value)
            #expect(Set(edited.variants.map(\.sku)) == ["V-HIGH", "V-LOW"])
        }
    }
}
