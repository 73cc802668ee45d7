import Domain
import Foundation
import Gateway
import Postgres
import TestSupport
import Testing

@Suite("Rate limits on real PostgreSQL")
struct PostgresRateLimiterTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let threePerMinute = RateLimit(count: 3, window: 60)!

    @Test func aBurstOfCountPassesThenOneMoreEachWindowOverCount() async throws {
        try await TestDatabase.with { db in
            let limiter = PostgresRateLimiter(database: db.pool)
            for _ in 0..<3 { #expect(try await limiter.take("k", under: Self.threePerMinute, now: Self.now) == nil) }
            let wait = try #require(try await limiter.take("k", under: Self.threePerMinute, now: Self.now))
            #expect(abs(wait - 20) < 0.01, "\(wait)")
            #expect(try await limiter.take("other", under: Self.threePerMinute, now: Self.now) == nil, "keys are counted apart")
            let later = Self.now.addingTimeInterval(15)
            #expect(abs((try await limiter.take("k", under: Self.threePerMinute, now: later) ?? 0) - 5) < 0.01)
            #expect(try await limiter.take("k", under: Self.threePerMinute, now: Self.now.addingTimeInterval(20)) == nil)
            #expect(try await limiter.take("k", under: Self.threePerMinute, now: Self.now.addingTimeInterval(20)) != nil)
            // Refused requests do not count: after a full window the whole burst is back.
            for _ in 0..<3 {
                #expect(try await limiter.take("k", under: Self.threePerMinute, now: Self.now.addingTimeInterval(80)) == nil)
            }
        }
    }

    @Test func concurrentRequestsTakeNoMoreThanTheLimit() async throws {
        try await TestDatabase.with { db in
            let limiter = PostgresRateLimiter(database: db.pool)
            let limit = RateLimit(count: 5, window: 3600)!
            let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<40 { group.addTask { try await limiter.take("shared", under: limit, now: Date()) == nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 5)
        }
    }

    @Test func purgeForgetsOnlyFullBuckets() async throws {
        try await TestDatabase.with { db in
            let limiter = PostgresRateLimiter(database: db.pool)
            _ = try await limiter.take("old", under: Self.threePerMinute, now: Self.now)
            _ = try await limiter.take("new", under: Self.threePerMinute, now: Self.now.addingTimeInterval(100))
            #expect(try await limiter.purge(now: Self.now.addingTimeInterval(100)) == 1)
            let keys: [String] = try await db.pool.query("SELECT key FROM rate_limits").rows.map { try $0.decode("key") }
            #expect(keys == ["new"])
        }
    }
}
