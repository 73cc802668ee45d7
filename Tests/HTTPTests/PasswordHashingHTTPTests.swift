import Domain
import Foundation
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
import Scenes
import Testing

/// The real password hash behind the real app: what its timing tells, and how much of it runs
/// at once.
@Suite("Password hashing over HTTP, real hasher on real PostgreSQL")
struct PasswordHashingHTTPTests {
    /// Limits out of the way: these tests are about the hash, not the rate limits.
    static func unlimited(_ config: inout AppConfig) {
        config.rateLimits.passwordPerAccount = RateLimit(count: 100_000, window: 60)!
        config.rateLimits.passwordPerAddress = RateLimit(count: 100_000, window: 60)!
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func anUnknownEmailTakesAsLongAsAWrongPassword() async throws {
        try await withApp(configure: Self.unlimited) { client, _ in
            let signUp = #"{"email":"ann@example.com","password":"correct horse","name":"Ann"}"#
            #expect(try await client.send(.post, "/v1/customers", json: signUp).status == .created)
            var known: [Double] = []
            var unknown: [Double] = []
            let clock = ContinuousClock()
            for round in 0..<9 {
                // Alternate, so a slower moment of the machine weighs on both.
                for email in round.isMultiple(of: 2) ? ["ann", "zed"] : ["zed", "ann"] {
                    let started = clock.now
                    let answer = try await client.send(
                        .post, "/v1/sessions", json: #"{"email":"\#(email)@example.com","password":"wrong horse!"}"#)
                    try answer.expectProblem(401)
                    let took = Self.seconds(clock.now - started)
                    if email == "ann" { known.append(took) } else { unknown.append(took) }
                }
            }
            let ratio = Self.median(unknown) / Self.median(known)
            #expect(
                ratio > 0.5 && ratio < 2,
                "median unknown email \(Self.median(unknown) * 1000) ms, wrong password \(Self.median(known) * 1000) ms")
        }
    }

    @Test func hashesBeyondTheBoundAreRefusedFastAndCheapRoutesStillAnswer() async throws {
        try await withApp(configure: {
            Self.unlimited(&$0); $0.passwordHashConcurrency = 2
        }) { client, _ in
            let signUp = #"{"email":"bo@example.com","password":"correct horse","name":"Bo"}"#
            #expect(try await client.send(.post, "/v1/customers", json: signUp).status == .created)
            let clock = ContinuousClock()
            let (signIns, reads) = try await withThrowingTaskGroup(of: (Int, Double, String?).self) { group in
                for index in 0..<32 {
                    group.addTask {
                        let password = index.isMultiple(of: 2) ? "correct horse" : "wrong horse!"
                        let started = clock.now
                        let answer = try await client.send(
                            .post, "/v1/sessions", json: #"{"email":"bo@example.com","password":"\#(password)"}"#)
                        if answer.status.code == 429 { try answer.expectProblem(429) }
                        return (Int(answer.status.code), Self.seconds(clock.now - started), answer.headers[.retryAfter])
                    }
                }
                // Meanwhile, one reader after another on a cheap route.
                group.addTask {
                    var worst = 0.0
                    for _ in 0..<20 {
                        let started = clock.now
                        let answer = try await client.send(.get, "/v1/items?limit=5")
                        #expect(answer.status == .ok)
                        worst = max(worst, Self.seconds(clock.now - started))
                    }
                    return (-1, worst, nil)
                }
                var signIns: [(status: Int, seconds: Double, retryAfter: String?)] = []
                var reads = 0.0
                for try await result in group {
                    if result.0 == -1 { reads = result.1 } else { signIns.append(result) }
                }
                return (signIns, reads)
            }
            let refused = signIns.filter { $0.status == 429 }
            let answered = signIns.filter { $0.status == 201 || $0.status == 401 }
            #expect(refused.count + answered.count == signIns.count, "\(signIns.map(\.status))")
            #expect(!refused.isEmpty && !answered.isEmpty, "\(refused.count) refused, \(answered.count) answered")
            #expect(refused.allSatisfy { $0.retryAfter == "1" })
            // Refusals do not queue behind the hashes: each comes back before the slowest answered
            // sign-in (which waited for its hash). Absolute bounds are loose (5 s: the whole suite,
            // some 680 tests, runs on two cores beside this); the relative bound is the property.
            let slowestRefusal = refused.map(\.seconds).max() ?? 0
            let slowestAnswer = answered.map(\.seconds).max() ?? 0
            #expect(slowestRefusal < max(slowestAnswer, 0.5), "a refusal took \(slowestRefusal) s, the slowest answer \(slowestAnswer) s")
            #expect(slowestRefusal < 5, "a refusal took \(slowestRefusal) s")
            #expect(reads < 5, "the slowest GET /v1/items during the sign-ins took \(reads) s")
        }
    }
}
