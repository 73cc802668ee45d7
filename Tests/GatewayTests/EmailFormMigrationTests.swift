import Foundation
import Postgres
import TestSupport
import Testing

/// Migrations/0048_emails_in_nfc.sql on real PostgreSQL: an email stored decomposed is composed,
/// as sign-up and sign-in now keep and look emails up; of several composing to one address the
/// oldest takes it, unless another account already has it, and the others are left as they are
/// (the migration never breaks the unique index; sign-in reaches each by its exact spelling).
@Suite("The migration to composed emails on real PostgreSQL")
struct EmailFormMigrationTests {
    @Test func decomposedEmailsAreComposedUnlessAnotherAccountHasThatForm() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let migrations = try Migration.load(from: repositoryRoot.appendingPathComponent("Migrations"))
            try await Migrator(pool: db.pool).migrate(migrations.filter { $0.version < 48 })
            func insert(_ email: String) async throws -> UUID {
                let id = UUID()
                try await db.pool.query(
                    "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'x')", id, email)
                return id
            }
            let alone = try await insert("rene\u{301}@example.com")
            let twin = try await insert("zoe\u{308}@example.com")
            _ = try await insert("Zo\u{EB}@example.com")
            // Two that compose to one address (their marks in another order): neither is changed.
            let marks = try await insert("d\u{323}\u{307}@example.com")
            let otherMarks = try await insert("d\u{307}\u{323}@example.com")

            try await Migrator(pool: db.pool).migrate(migrations)
            func email(_ id: UUID) async throws -> [Unicode.Scalar] {
                let text: String = try await db.pool.query("SELECT email FROM customers WHERE id = $1", id).rows[0].decode("email")
                return Array(text.unicodeScalars)
            }
            #expect(try await email(alone) == Array("ren\u{E9}@example.com".unicodeScalars))
            #expect(try await email(twin) == Array("zoe\u{308}@example.com".unicodeScalars))
            // The older of the two takes the composed form, so no new account can take it.
            #expect(try await email(marks) == Array("\u{1E0D}\u{307}@example.com".unicodeScalars))
            #expect(try await email(otherMarks) == Array("d\u{307}\u{323}@example.com".unicodeScalars))
        }
    }
}
