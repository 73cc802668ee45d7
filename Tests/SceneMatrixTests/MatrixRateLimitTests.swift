import Domain
import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Testing

/// What the generated code of a rate-limited use case (`seal` in `MatrixOwned.yml`) does on the
/// real throttle (PostgreSQL's counts).
@Suite("MatrixOwned's rate-limited use case (hand-written checks of generated code)")
struct MatrixRateLimitTests {
    /// `rate_limit: { class: checkout, when: reason }`: only requests carrying `reason` count,
    /// and past the limit they are refused before the logic runs.
    @Test func onlyRequestsCarryingTheFieldCountAndPastTheLimitAre429() async throws {
        try await withApp(configure: { $0.rateLimits.checkoutPerCustomer = RateLimit(count: 2, window: 3600)! }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let path = "/v1/matrix/owned/\(UUID())/seal"
            for _ in 0..<4 {
                // Not counted: the logic (not written in the matrix) answers each.
                #expect(try await client.send(.put, path, json: "{}", token: token).status.code == 501)
            }
            for _ in 0..<2 {
                #expect(try await client.send(.put, path, json: #"{"reason": "r"}"#, token: token).status.code == 501)
            }
            let refused = try await client.send(.put, path, json: #"{"reason": "r"}"#, token: token)
            try refused.expectProblem(429)
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try await client.send(.put, path, json: "{}", token: token).status.code == 501)
        }
    }
}
