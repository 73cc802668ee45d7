import Crypto
import Domain
import Foundation
import Postgres

/// `RateLimiter` on PostgreSQL: table `rate_limits`, one row per key holding the moment its
/// bucket is full again (the generic cell rate algorithm, a token bucket in one timestamp). Each
/// event pushes that moment on by `window / count`; an event that would push it more than
/// `window` past now is refused. One statement takes a token atomically, so the limit holds for
/// concurrent requests on any number of instances. A key longer than an index entry may be (a
/// client's made-up email) is stored as its SHA-256.
public struct PostgresRateLimiter: RateLimiter {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func take(_ key: String, under limit: RateLimit, now: Date) async throws -> Double? {
        let interval = Double(limit.window) / Double(limit.count)
        return try await translatingUnavailable {
            // The outer SELECT reads the row as it was before the INSERT: when refused, how far
            // its full moment is past the most the window allows is the wait.
            let row = try await database.query(
                """
                WITH taken AS (
                    INSERT INTO rate_limits AS r (key, refilled_at) VALUES ($1, $2::timestamptz + make_interval(secs => $3::float8))
                    ON CONFLICT (key) DO UPDATE SET refilled_at = greatest(r.refilled_at, $2::timestamptz) + make_interval(secs => $3::float8)
                    WHERE greatest(r.refilled_at, $2::timestamptz) + make_interval(secs => $3::float8)
                        <= $2::timestamptz + make_interval(secs => $4::float8)
                    RETURNING 1
                )
                SELECT EXISTS (SELECT FROM taken) AS taken,
                    (SELECT extract(epoch FROM refilled_at - $2::timestamptz)::float8 FROM rate_limits WHERE key = $1) AS ahead
                """,
                Self.stored(key), now, interval, Double(limit.window)
            ).rows.first
            guard let row, try !row.decode("taken", as: Bool.self) else { return nil }
            let ahead: Double? = try row.decode("ahead")
            return max(0.001, (ahead ?? 0) + interval - Double(limit.window))
        }
    }

    static func stored(_ key: String) -> String {
        guard key.utf8.count > 200 else { return key }
        return "sha256:" + SHA256.hash(data: Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    public func purge(now: Date) async throws -> Int {
        try await translatingUnavailable {
            try await database.query("DELETE FROM rate_limits WHERE refilled_at <= $1", now).affectedRows
        }
    }
}
