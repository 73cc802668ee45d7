import Foundation
import Postgres
import PropertyBased
import TestSupport
import Testing

/// `[UInt8]` travels in binary format (`paramFormats` 1) beside text and NULL parameters of the
/// same statement: any bytes, NUL and all, of any length up to a resumable upload's piece and
/// past it, come back as sent, through named statements and unnamed ones (the pooler's mode).
@Suite("Binary parameters on real PostgreSQL")
struct BinaryParameterTests {
    @Test(arguments: [false, true])
    func bytesOfAnyContentAndLengthComeBackAsSent(unnamed: Bool) async throws {
        try await TestDatabase.with(migrated: false) { db in
            let pool = PostgresPool(
                .init(connection: .init(conninfo: db.url, behindTransactionPooler: unnamed), maxConnections: 1))
            await propertyCheck(count: 60, input: Gen.int(), Gen.int(in: 0...300_000)) { seed, length in
                var random = SeededBytes(seed: UInt64(bitPattern: Int64(seed)))
                let bytes = (0..<length).map { _ in random.byte() }
                let nothing: [UInt8]? = nil
                let row = try await pool.query(
                    "SELECT $1::text AS before, $2::bytea AS bytes, length($2::bytea) AS length, $3::bytea AS missing, $4::int AS after",
                    "é\u{1}", bytes, nothing, length
                ).rows[0]
                let read: [UInt8] = try row.decode("bytes")
                #expect(read == bytes)
                #expect(try row.decode("length", as: Int.self) == length)
                #expect(try row.decode("missing", as: [UInt8]?.self) == nil)
                #expect(try row.decode("before", as: String.self) == "é\u{1}" && (try row.decode("after", as: Int.self)) == length)
            }
            // The edges, and bytes where PostgreSQL would otherwise infer another type: they are
            // declared bytea, never read as a uuid's or a text's own binary form.
            let row = try await pool.query(
                "SELECT length($1::bytea) AS empty, $2::bytea AS one, pg_typeof($3)::text AS type, $3::text AS text",
                [UInt8](), [UInt8]?.some([1]), [UInt8](repeating: 0x41, count: 16)
            ).rows[0]
            #expect(try row.decode("empty", as: Int.self) == 0)
            #expect(try row.decode("one", as: [UInt8].self) == [1])
            #expect(try row.decode("type", as: String.self) == "bytea")
            #expect(try row.decode("text", as: String.self) == "\\x" + String(repeating: "41", count: 16))
            await pool.shutdown()
        }
    }
}

/// xorshift bytes, so a failing seed reproduces its input.
private struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func byte() -> UInt8 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}
