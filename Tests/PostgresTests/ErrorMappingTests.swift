import Postgres
import TestSupport
import Testing

@Suite("SQLSTATE mapping")
struct ErrorMappingTests {
    static let schema = """
        CREATE TABLE parents (id int PRIMARY KEY);
        CREATE TABLE children (
            id int CONSTRAINT children_pkey PRIMARY KEY,
            parent int NOT NULL CONSTRAINT children_parent_fkey REFERENCES parents (id),
            age int CONSTRAINT children_age_check CHECK (age >= 0),
            code text CONSTRAINT children_code_key UNIQUE
        );
        INSERT INTO parents VALUES (1);
        INSERT INTO children VALUES (1, 1, 3, 'a');
        """

    private func failure(_ sql: String, _ binds: any PostgresEncodable...) async throws -> PostgresError {
        try await TestDatabase.with(migrated: false) { db in
            try await db.pool.withConnection { try await $0.executeScript(Self.schema) }
            do {
                _ = try await db.pool.query(sql, binds: binds)
            } catch let error as PostgresError {
                return error
            }
            throw TestSetupError("statement did not fail: \(sql)")
        }
    }

    @Test func uniqueViolationCarriesConstraint() async throws {
        let error = try await failure("INSERT INTO children VALUES ($1, 1, 1, 'a')", 2)
        guard case .uniqueViolation(let info) = error else { Issue.record("got \(error)"); return }
        #expect(info.sqlState == "23505")
        #expect(error.constraint == "children_code_key")
    }

    @Test func foreignKeyViolationCarriesConstraint() async throws {
        let error = try await failure("INSERT INTO children VALUES (2, $1, 1, 'b')", 99)
        guard case .foreignKeyViolation = error else { Issue.record("got \(error)"); return }
        #expect(error.constraint == "children_parent_fkey")
    }

    @Test func checkViolationCarriesConstraint() async throws {
        let error = try await failure("INSERT INTO children VALUES (2, 1, $1, 'b')", -1)
        guard case .checkViolation = error else { Issue.record("got \(error)"); return }
        #expect(error.constraint == "children_age_check")
    }

    @Test func notNullViolationNamesColumn() async throws {
        let missing: Int? = nil
        let error = try await failure("INSERT INTO children VALUES (2, $1, 1, 'b')", missing)
        guard case .notNullViolation(let info) = error else { Issue.record("got \(error)"); return }
        #expect(info.column == "parent")
    }

    @Test func syntaxErrorIsAServerError() async throws {
        let error = try await failure("SELEC 1")
        guard case .server(let info) = error else { Issue.record("got \(error)"); return }
        #expect(info.sqlState == "42601")
        #expect(!error.isUnavailable)
    }

    @Test func aNulCharacterIsRefusedNotCutShort() async throws {
        // Sent as a C string, "a\0b" would arrive as "a": the statement must not run at all.
        let error = try await failure("INSERT INTO children VALUES (2, 1, $1, $2)", 1, "a\u{0}b")
        #expect(error == .nulInParameter(2))
        try await TestDatabase.with(migrated: false) { db in
            try await db.pool.withConnection { try await $0.executeScript(Self.schema) }
            await #expect(throws: PostgresError.nulInParameter(1)) { try await db.pool.query("SELECT $1::text AS t", "\u{0}") }
            // The connection is fine afterwards.
            #expect(try await db.pool.query("SELECT count(*)::int AS n FROM children").rows[0].decode("n") as Int == 1)
        }
    }

    @Test func badConnectionStringKeepsLibpqText() async throws {
        #expect(throws: PostgresError.self) { try PostgresConnectionSettings(conninfo: "host=x nonsense").validate() }
        let pool = PostgresPool(.init(connection: .init(conninfo: "postgresql://storefront@127.0.0.1:\(freePort())/none")))
        do {
            try await pool.query("SELECT 1")
            Issue.record("connected to a port nothing listens on")
        } catch let error as PostgresError {
            guard case .connection(let message) = error else { Issue.record("got \(error)"); return }
            #expect(message.contains("Connection refused"))
            #expect(!message.contains("\n"))
            #expect(error.isUnavailable)
        }
    }
}
