import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import Testing

/// The app's periodic purge, run by the app itself on real PostgreSQL.
@Suite("Expired sessions are purged")
struct SessionPurgeHTTPTests {
    @Test func expiredSessionsAndSpentLimitsAreDeletedWhileLiveOnesStay() async throws {
        try await withApp(configure: { $0.purgeInterval = .milliseconds(100) }) { client, db in
            let (id, token) = try await signedInCustomer(db)
            try await db.pool.query(
                "INSERT INTO sessions (token_hash, customer_id, expires_at) VALUES ($1, $2, now() - interval '1 second')",
                [UInt8](repeating: 7, count: 32), id)
            try await db.pool.query("INSERT INTO rate_limits (key, refilled_at) VALUES ('spent', now() - interval '1 second')")
            try await db.pool.query("INSERT INTO rate_limits (key, refilled_at) VALUES ('counting', now() + interval '1 hour')")
            var left: (sessions: Int, limits: [String]) = (0, [])
            for _ in 0..<50 {
                try await Task.sleep(for: .milliseconds(100))
                left.sessions = try await db.pool.query("SELECT count(*)::int AS n FROM sessions").rows[0].decode("n")
                left.limits = try await db.pool.query("SELECT key FROM rate_limits").rows.map { try $0.decode("key") }
                if left.sessions == 1 && left.limits == ["counting"] { break }
            }
            #expect(left.sessions == 1 && left.limits == ["counting"], "left: \(left)")
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok)
        }
    }
}
