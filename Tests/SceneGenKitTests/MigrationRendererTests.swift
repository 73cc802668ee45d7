import Foundation
import Postgres
import TestSupport
import Testing

@testable import SceneGenKit

@Suite("scenegen: migration rendering")
struct MigrationRendererTests {
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference")

    static func wishlist() throws -> SceneSpec {
        let text = try String(contentsOf: reference.appendingPathComponent("Wishlist.yml"), encoding: .utf8)
        let (spec, diagnostics) = SpecParser.parse(text, file: "Specs/Wishlist.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(spec)
    }

    @Test func matchesTheCommittedReference() throws {
        let rendered = MigrationRenderer.sql(for: try Self.wishlist())
        let file = Self.reference.appendingPathComponent("Wishlist/Migrations/0002_create_wishlist_entries.sql")
        // SCENEGEN_RECORD=1 rewrites the reference; review its diff before committing it.
        if ProcessInfo.processInfo.environment["SCENEGEN_RECORD"] == "1" {
            try rendered.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(rendered == expected)
    }

    /// A list nested under a parent pages per parent, newest first: its index says so.
    @Test func aNestedListsParentIndexOrdersItsPage() throws {
        let spec = try Self.wishlist()
        #expect(MigrationRenderer.sql(for: spec).contains("CREATE INDEX wishlist_entries_item_id_idx ON wishlist_entries (item_id);"))
        let text = try String(contentsOf: Self.reference.appendingPathComponent("Wishlist.yml"), encoding: .utf8)
            .replacingOccurrences(
                of: "{ name: item_id, type: uuid, references: items }",
                with: "{ name: item_id, type: uuid, references: items, readonly: true }"
            )
            .replacingOccurrences(of: "/v1/wishlist\"", with: "/v1/items/{item_id}/wishes\"")
            .replacingOccurrences(of: "/v1/wishlist/{id}\"", with: "/v1/items/{item_id}/wishes/{id}\"")
        let nested = try #require(SpecParser.parse(text, file: "Specs/Wishlist.yml").spec)
        #expect(
            MigrationRenderer.sql(for: nested).contains(
                "CREATE INDEX wishlist_entries_item_id_idx ON wishlist_entries (item_id, created_at DESC, id DESC);"))
    }

    /// An account's deletion empties the owned tables in this order: one whose rows refer to
    /// another's first (the generated references have no ON DELETE), where alphabetical order
    /// deleted the referred rows first and failed.
    @Test func ownedTablesReferringToOthersComeFirst() throws {
        let text = try String(contentsOf: Self.reference.appendingPathComponent("Wishlist.yml"), encoding: .utf8)
        let albums = text.replacingOccurrences(of: "table: wishlist_entries", with: "table: albums")
        let photos = text.replacingOccurrences(of: "table: wishlist_entries", with: "table: photos")
            .replacingOccurrences(of: "references: items", with: "references: albums")
        #expect(photos.contains("references: albums"))
        let specs = try [albums, photos].map { try #require(SpecParser.parse($0, file: "Specs/T.yml").spec) }
        let list = MigrationRenderer.customerOwnedTables(specs)
        #expect(list.contains(#"["photos", "albums"]"#), "\(list)")
        let reversed = MigrationRenderer.customerOwnedTables(specs.reversed())
        #expect(reversed.contains(#"["photos", "albums"]"#), "\(reversed)")
    }

    @Test func isNamedByVersion() throws {
        #expect(MigrationRenderer.fileName(for: try Self.wishlist(), version: 7) == "0007_create_wishlist_entries.sql")
    }
}

@Suite("scenegen: rendered migrations on real PostgreSQL")
struct RenderedMigrationDatabaseTests {
    @Test func appliesAndEnforcesTheSpecsRules() async throws {
        let sql = MigrationRenderer.sql(for: try MigrationRendererTests.wishlist())
        try await TestDatabase.with { db in
            // The shipped Wishlist scene's table stands in the template: the reference replaces it.
            try await db.pool.query("DROP TABLE IF EXISTS wishlist_entries")
            try await db.pool.withConnection { connection in try await connection.executeScript(sql) }
            let customer = UUID()
            let item = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'c@example.com', 'C', 'x')", customer)
            try await db.pool.query(
                "INSERT INTO items (id, sku, name, category, price_amount, price_currency) VALUES ($1, 'S-1', 'n', 'c', 1, 'JPY')",
                item)
            let insert =
                "INSERT INTO wishlist_entries (id, customer_id, item_id, priority, budget_amount, budget_currency) VALUES ($1, $2, $3, $4, $5, $6)"
            let noAmount: Int64? = nil
            let noCurrency: String? = nil
            try await db.pool.query(insert, UUID(), customer, item, 3, noAmount, noCurrency)
            func violation(_ binds: any PostgresEncodable...) async -> String? {
                do {
                    _ = try await db.pool.query(insert, binds: binds)
                    return nil
                } catch let error as PostgresError {
                    return error.constraint
                } catch {
                    return "\(error)"
                }
            }
            #expect(await violation(UUID(), customer, item, 9, noAmount, noCurrency) == "wishlist_entries_priority_check")
            #expect(await violation(UUID(), customer, item, 3, Int64(100), noCurrency) == "wishlist_entries_budget_complete_check")
            #expect(await violation(UUID(), customer, item, 3, Int64(100), "yen") == "wishlist_entries_budget_currency_check")
            #expect(await violation(UUID(), customer, UUID(), 3, noAmount, noCurrency) == "wishlist_entries_item_id_fkey")
            // No such customer: refused by the trigger of live customers before the foreign key.
            #expect(await violation(UUID(), UUID(), item, 3, noAmount, noCurrency) == "customer_deleted")
            let status: String = try await db.pool.query("SELECT status FROM wishlist_entries").rows[0].decode("status")
            #expect(status == "active")
            // A deleted account takes no new row (its rows are deleted with it: CustomerOwnedTables).
            try await db.pool.query("UPDATE customers SET deleted_at = now() WHERE id = $1", customer)
            #expect(await violation(UUID(), customer, item, 3, noAmount, noCurrency) == "customer_deleted")
        }
    }

    /// A unique group with an optional field counts an absent value as one value: before, two
    /// rows differing only by an absent note were both kept, as PostgreSQL's plain UNIQUE does.
    @Test func aUniqueGroupWithAnOptionalFieldCountsAbsentAsOneValue() async throws {
        let text = try String(contentsOf: MigrationRendererTests.reference.appendingPathComponent("Wishlist.yml"), encoding: .utf8)
            .replacingOccurrences(of: "  owner: customer\n", with: "  owner: customer\n  unique: [[customer_id, note]]\n")
        let spec = try #require(SpecParser.parse(text, file: "Specs/Wishlist.yml").spec)
        let sql = MigrationRenderer.sql(for: spec)
        #expect(sql.contains("CONSTRAINT wishlist_entries_note_key UNIQUE NULLS NOT DISTINCT (customer_id, note)"), "\(sql)")
        try await TestDatabase.with { db in
            try await db.pool.query("DROP TABLE IF EXISTS wishlist_entries")
            try await db.pool.withConnection { connection in try await connection.executeScript(sql) }
            let (customer, item) = (UUID(), UUID())
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'u@example.com', 'U', 'x')", customer)
            try await db.pool.query(
                "INSERT INTO items (id, sku, name, category, price_amount, price_currency) VALUES ($1, 'S-2', 'n', 'c', 1, 'JPY')", item)
            let insert = "INSERT INTO wishlist_entries (id, customer_id, item_id) VALUES ($1, $2, $3)"
            try await db.pool.query(insert, UUID(), customer, item)
            await #expect(throws: PostgresError.self) { try await db.pool.query(insert, UUID(), customer, item) }
        }
    }
}
