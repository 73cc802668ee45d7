import Foundation
import Postgres
import TestSupport
import Testing

@Suite("Row decoding on real PostgreSQL")
struct DecodingTests {
    @Test func decodesEveryScalarType() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let id = UUID()
            let rows = try await db.pool.query(
                """
                SELECT 42::int AS i, 9000000000::bigint AS big, 7::int4 AS small, 'héllo'::text AS s,
                       true AS yes, 2.5::float8 AS d, $1::uuid AS id,
                       '2026-11-22 20:40:49.123456+09'::timestamptz AS at,
                       NULL::int AS missing, '\\x00ff10'::bytea AS bytes
                """, id
            ).rows
            let row = try #require(rows.first)
            #expect(try row.decode("i", as: Int.self) == 42)
            #expect(try row.decode("big", as: Int64.self) == 9_000_000_000)
            #expect(try row.decode("small", as: Int32.self) == 7)
            #expect(try row.decode("s", as: String.self) == "héllo")
            #expect(try row.decode("yes", as: Bool.self) == true)
            #expect(try row.decode("d", as: Double.self) == 2.5)
            #expect(try row.decode("id", as: UUID.self) == id)
            let at = try row.decode("at", as: Date.self)
            #expect(abs(at.timeIntervalSince1970 - 1_795_347_649.123456) < 0.000001)
            #expect(try row.decode("missing", as: Int?.self) == nil)
            #expect(try row.decode("i", as: Int?.self) == 42)
            #expect(try row.decode("bytes", as: [UInt8].self) == [0x00, 0xff, 0x10])
        }
    }

    @Test func roundTripsBoundValues() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let date = Date(timeIntervalSince1970: 1_700_000_000.654321)
            let bytes: [UInt8] = [1, 2, 250]
            let nothing: String? = nil
            let row = try #require(
                try await db.pool.query(
                    "SELECT $1::timestamptz AS at, $2::bytea AS b, $3::text AS n, $4::float8 AS d, $5::bool AS f",
                    date, bytes, nothing, 0.1, false
                ).rows.first)
            #expect(abs(try row.decode("at", as: Date.self).timeIntervalSince(date)) < 0.000001)
            #expect(try row.decode("b", as: [UInt8].self) == bytes)
            #expect(try row.decode("n", as: String?.self) == nil)
            #expect(try row.decode("d", as: Double.self) == 0.1)
            #expect(try row.decode("f", as: Bool.self) == false)
        }
    }

    @Test func mismatchNamesColumnAndBothTypes() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let row = try #require(try await db.pool.query("SELECT 'x'::text AS label, NULL::int AS gone").rows.first)
            #expect(throws: PostgresError.decoding(column: "label", swiftType: "Int", postgresType: "text")) {
                try row.decode("label", as: Int.self)
            }
            #expect(throws: PostgresError.unexpectedNull(column: "gone", swiftType: "Int")) {
                try row.decode("gone", as: Int.self)
            }
            #expect(throws: PostgresError.noSuchColumn("nope")) { try row.decode("nope", as: String.self) }
            let error = PostgresError.decoding(column: "label", swiftType: "Int", postgresType: "text")
            #expect(error.description.contains("label") && error.description.contains("Int") && error.description.contains("text"))
        }
    }

    @Test func reportsAffectedRows() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.pool.query("CREATE TABLE t (n int)")
            let inserted = try await db.pool.query("INSERT INTO t SELECT generate_series(1, $1::int)", 5)
            #expect(inserted.affectedRows == 5)
            let updated = try await db.pool.query("UPDATE t SET n = n + 1 WHERE n > $1", 3)
            #expect(updated.affectedRows == 2)
        }
    }
}

@Suite("Row decoding by context")
struct ContextualDecodingTests {
    /// An optional destination must decode NULL as nil, not fail as a non-optional would.
    @Test func optionalContextDecodesNull() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let row = try #require(try await db.pool.query("SELECT NULL::text AS missing, 'x'::text AS present").rows.first)
            let missing: String? = try row.decode("missing")
            let present: String? = try row.decode("present")
            let plain: String = try row.decode("present")
            #expect(missing == nil && present == "x" && plain == "x")
        }
    }
}
