import Foundation
import Postgres
import PropertyBased
import TestSupport
import Testing

/// Instants as parameters and results, over PostgreSQL's whole range and past it. Writing one
/// once trapped for microseconds near `Int64.max`, killing the process; none may trap now.
@Suite("Timestamps through PostgreSQL")
struct TimestampTests {
    /// PostgreSQL's earliest instant, 4714-11-24T00:00:00Z BC, in microseconds since 1970. Its
    /// latest lies past `Int64.max` microseconds.
    static let earliestMicros: Int64 = -210_866_803_200_000_000
    /// The latest instant a `Date` (a `Double` of seconds) reaches with its microseconds still
    /// below `Int64.max`: within the last few thousand, the conversion rounds up to 2^63, which is
    /// written as `infinity` (tested below).
    static let latestMicros: Int64 = .max - 10_000_000

    /// Sends `date` as a parameter and reads it back.
    static func roundTrip(_ date: Date, _ db: TestDatabase) async throws -> Date {
        let row = try #require(try await db.pool.query("SELECT $1::timestamptz AS at", date).rows.first)
        return try row.decode("at", as: Date.self)
    }

    /// Equal to the microsecond, or to the precision a `Double` of seconds has that far out.
    static func close(_ a: Date, _ b: Date) -> Bool {
        let tolerance = 0.000_001 + abs(b.timeIntervalSince1970) * 1e-15
        return abs(a.timeIntervalSince1970 - b.timeIntervalSince1970) <= tolerance
    }

    @Test func everyInstantPostgreSQLHoldsRoundTrips() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let micros = Gen.int64(in: Self.earliestMicros...Self.latestMicros)
            await propertyCheck(count: 300, input: micros) { value in
                let date = Date(timeIntervalSince1970: Double(value) / 1_000_000)
                let back = try await Self.roundTrip(date, db)
                #expect(Self.close(back, date), "\(value): \(back.timeIntervalSince1970) != \(date.timeIntervalSince1970)")
            }
            let edges: [Int64] = [Self.earliestMicros, -62_135_596_800_000_000 - 1, 0, -1, 253_402_300_800_000_000, Self.latestMicros]
            for value in edges {
                let date = Date(timeIntervalSince1970: Double(value) / 1_000_000)
                let back = try await Self.roundTrip(date, db)
                #expect(Self.close(back, date), "\(value)")
            }
        }
    }

    @Test func instantsPastTheRangeAreRefusedOrInfiniteNeverATrap() async throws {
        try await TestDatabase.with(migrated: false) { db in
            // Past Int64 microseconds: written as PostgreSQL's infinities.
            for seconds in [9.3e12, 1e300, .infinity] {
                let late = try await Self.roundTrip(Date(timeIntervalSince1970: seconds), db)
                let early = try await Self.roundTrip(Date(timeIntervalSince1970: -seconds), db)
                #expect(late.timeIntervalSince1970 == .infinity)
                #expect(early.timeIntervalSince1970 == -.infinity)
            }
            // Between Int64.min microseconds and PostgreSQL's earliest instant: PostgreSQL refuses it.
            let early = Date(timeIntervalSince1970: Double(Self.earliestMicros) / 1_000_000 - 86_400)
            await #expect(throws: PostgresError.self) { _ = try await Self.roundTrip(early, db) }
        }
    }
}
