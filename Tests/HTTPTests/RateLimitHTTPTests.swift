import Domain
import Foundation
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
import Logging
import Scenes
import Testing

@testable import HTTP

/// The rate limits on the real app, counted in real PostgreSQL, with small limits set for the test.
@Suite("Rate limits over HTTP")
struct RateLimitHTTPTests {
    static func signIn(_ client: any TestClientProtocol, _ email: String, _ password: String, from address: String? = nil) async throws
        -> TestResponse
    {
        try await client.send(
            .post, "/v1/sessions", json: #"{"email":"\#(email)","password":"\#(password)"}"#,
            headers: address.map { [.init("X-Forwarded-For")!: $0] } ?? [:])
    }

    @Test func wrongSignInsAreLimitedPerAccount() async throws {
        try await withApp(configure: { $0.rateLimits.passwordPerAccount = RateLimit(count: 3, window: 600)! }) { client, _ in
            try await client.send(.post, "/v1/customers", json: #"{"email":"ann@example.com","password":"correct horse","name":"Ann"}"#)
            for _ in 0..<3 { try await Self.signIn(client, "ann@example.com", "wrong horse!").expectProblem(401) }
            let limited = try await Self.signIn(client, "ANN@example.com", "correct horse")
            let problem = try limited.expectProblem(429)
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((150...200).contains(retryAfter), "one attempt comes back every 200 s: \(retryAfter)")
            #expect(problem["retry_after"] as? Int == retryAfter)
            // Another account is not affected.
            try await Self.signIn(client, "zed@example.com", "wrong horse!").expectProblem(401)
        }
    }

    /// Anyone who knew a customer's email locked them out of signing in with a few wrong
    /// passwords: the count was the email's alone. Now it is the email's from each address, and
    /// ten times that from all of them together.
    @Test func wrongSignInsFromOneAddressDoNotLockTheAccountOutElsewhere() async throws {
        // A day's window: 30 hashed sign-ins take a minute on a loaded machine, and a bucket of a
        // shorter one refills meanwhile.
        let limits: @Sendable (inout AppConfig) -> Void = {
            $0.rateLimits.passwordPerAccount = RateLimit(count: 3, window: 86_400)!
            $0.trustedProxyHops = 1
        }
        try await withApp(configure: limits) { client, _ in
            try await client.send(.post, "/v1/customers", json: #"{"email":"amy@example.com","password":"correct horse","name":"Amy"}"#)
            for _ in 0..<3 { try await Self.signIn(client, "amy@example.com", "wrong horse!", from: "203.0.113.66").expectProblem(401) }
            try await Self.signIn(client, "amy@example.com", "correct horse", from: "203.0.113.66").expectProblem(429)
            #expect(try await Self.signIn(client, "amy@example.com", "correct horse", from: "198.51.100.20").status == .created)
            // Guesses from many addresses still stop at ten times the limit for the account.
            for guess in 0..<26 {
                try await Self.signIn(client, "amy@example.com", "wrong horse!", from: "192.0.2.\(guess)").expectProblem(401)
            }
            try await Self.signIn(client, "amy@example.com", "wrong horse!", from: "192.0.2.200").expectProblem(429)
        }
    }

    /// PostgreSQL's `lower()` matches "İ" (U+0130) to "i", and Swift's `lowercased()` to "i" and a
    /// combining dot: a count keyed on the latter gave every such spelling an allowance of its own.
    @Test func everySpellingThatReachesAnAccountSharesItsLimit() async throws {
        try await withApp(configure: { $0.rateLimits.passwordPerAccount = RateLimit(count: 3, window: 600)! }) { client, _ in
            try await client.send(.post, "/v1/customers", json: #"{"email":"liz@example.com","password":"correct horse","name":"Liz"}"#)
            for _ in 0..<3 { try await Self.signIn(client, "liz@example.com", "wrong horse!").expectProblem(401) }
            for spelling in ["l\\u0130z@example.com", "LİZ@EXAMPLE.COM", "ｌiz@example.com", "líz@example.com"] {
                try await Self.signIn(client, spelling, "correct horse").expectProblem(429)
            }
        }
    }

    @Test func anyEmailOrForwardedAddressIsCountedWithoutError() async throws {
        try await withApp(configure: { $0.trustedProxyHops = 2 }) { client, _ in
            let long = (0..<500).map { _ in UUID().uuidString }.joined()  // 18,000 characters that do not compress
            // Counted before its input is checked, then refused as no email can be that long.
            let tooLong = try await Self.signIn(client, "\(long)@example.com", "wrong horse!")
            try tooLong.expectProblem(422)
            #expect(tooLong.fieldNames == ["email"])
            try await Self.signIn(client, "ann@example.com", "wrong horse!", from: "\(long), 10.0.0.1").expectProblem(401)
        }
    }

    @Test func aLimitHoldsAcrossInstances() async throws {
        let limits: @Sendable (inout AppConfig) -> Void = { $0.rateLimits.passwordPerAccount = RateLimit(count: 3, window: 600)! }
        try await withApp(configure: limits) { first, db in
            // A second instance: its own app and pool, the same database.
            var config = AppConfig(databaseURL: db.url)
            limits(&config)
            try await buildApplication(AppResources.live(config, logger: Logger(label: "second"))).test(.router) { second in
                for client in [first, second, first] { try await Self.signIn(client, "ann@example.com", "wrong horse!").expectProblem(401) }
                try await Self.signIn(second, "ann@example.com", "wrong horse!").expectProblem(429)
            }
        }
    }

    @Test func signInsAndSignUpsAreLimitedPerClientAddress() async throws {
        let limits: @Sendable (inout AppConfig) -> Void = { $0.rateLimits.passwordPerAddress = RateLimit(count: 3, window: 600)! }
        // A real socket: the address is the connection's, and X-Forwarded-For is not trusted.
        try await withApp(testing: .live, configure: limits) { client, _ in
            try await client.send(.post, "/v1/customers", json: #"{"email":"a@example.com","password":"correct horse","name":"A"}"#)
            try await Self.signIn(client, "b@example.com", "wrong horse!", from: "10.0.0.1").expectProblem(401)
            try await Self.signIn(client, "c@example.com", "wrong horse!", from: "10.0.0.2").expectProblem(401)
            try await Self.signIn(client, "d@example.com", "wrong horse!", from: "10.0.0.3").expectProblem(429)
            let signUp = try await client.send(
                .post, "/v1/customers", json: #"{"email":"e@example.com","password":"correct horse","name":"E"}"#)
            try signUp.expectProblem(429)
            #expect(signUp.headers[.retryAfter] != nil)
        }
        // Behind one trusted proxy, the address it appended counts, not what the client claimed before it.
        try await withApp(
            testing: .live,
            configure: {
                limits(&$0); $0.trustedProxyHops = 1
            }
        ) { client, _ in
            for _ in 0..<3 { try await Self.signIn(client, "b@example.com", "wrong horse!", from: "10.0.0.1").expectProblem(401) }
            try await Self.signIn(client, "b@example.com", "wrong horse!", from: "6.6.6.6, 10.0.0.1").expectProblem(429)
            try await Self.signIn(client, "b@example.com", "wrong horse!", from: "10.0.0.2").expectProblem(401)
        }
    }

    /// Every IPv6 host has a /64 of addresses to send from: counted one by one, one client with
    /// a few of them held every upload place past the per-address bound (second attacker).
    @Test func anIPv6ClientCountsAsItsSlash64() {
        let bucket = ClientAddressMiddleware.bucket
        #expect(bucket("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(bucket("2001:db8:1:2:ffff:eeee:dddd:cccc") == "2001:db8:1:2::/64")
        #expect(bucket("2001:0DB8:0001:0003::1") == "2001:db8:1:3::/64")
        #expect(bucket("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(bucket("192.0.2.7") == "192.0.2.7")
        #expect(bucket("not an address") == "not an address")
        // Written with a port, brackets or a zone by some proxies: the same client (third attacker).
        #expect(bucket("192.0.2.7:1234") == "192.0.2.7")
        #expect(bucket("[2001:db8:1:2::1]") == "2001:db8:1:2::/64")
        #expect(bucket("[2001:db8:1:2::1]:443") == "2001:db8:1:2::/64")
        #expect(bucket("fe80::1%eth0") == "fe80:0:0:0::/64")
        #expect(ClientAddressMiddleware.address(forwardedFor: [], peer: "2001:db8::5", hops: 0) == "2001:db8:0:0::/64")
        #expect(ClientAddressMiddleware.address(forwardedFor: ["2001:db8:7::9"], peer: "127.0.0.1", hops: 1) == "2001:db8:7:0::/64")
    }

    @Test func theForwardedAddressIsTheOneTheTrustedProxiesWrote() {
        let address = ClientAddressMiddleware.address
        #expect(address(["1.1.1.1"], "127.0.0.1", 0) == "127.0.0.1")
        #expect(address(["6.6.6.6, 1.1.1.1"], "127.0.0.1", 1) == "1.1.1.1")
        #expect(address(["6.6.6.6", "1.1.1.1, 2.2.2.2"], "127.0.0.1", 2) == "1.1.1.1")
        #expect(address([], "127.0.0.1", 1) == "127.0.0.1", "no header: the request did not come through the proxy")
        #expect(address([], nil, 0) == "unknown")
    }

    @Test func checkoutsAreLimitedPerCustomer() async throws {
        try await withApp(configure: { $0.rateLimits.checkoutPerCustomer = RateLimit(count: 2, window: 3600)! }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let (_, other) = try await signedInCustomer(db)
            func checkout(_ token: String) async throws -> TestResponse {
                try await client.send(
                    .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: token,
                    headers: [.init("Idempotency-Key")!: UUID().uuidString])
            }
            // Empty carts: refused by the use case, but each attempt counts.
            for _ in 0..<2 { #expect(try await checkout(token).status.code != 429) }
            try await checkout(token).expectProblem(429)
            #expect(try await checkout(other).status.code != 429)
        }
    }

    @Test func photoUploadsAreLimitedPerCustomer() async throws {
        try await withApp(configure: { $0.rateLimits.photoPerCustomer = RateLimit(count: 1, window: 3600)! }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let review = UUID()
            #expect(try await client.send(.post, "/v1/reviews/\(review)/photos", json: "{}", token: token).status.code != 429)
            try await client.send(.post, "/v1/reviews/\(review)/photos", json: "{}", token: token).expectProblem(429)
        }
    }

    /// Each refresh asks the payment provider, whose quota the whole shop shares: a customer's
    /// refreshes are counted, any order's, and another customer keeps theirs.
    @Test func paymentRefreshesAreLimitedPerCustomer() async throws {
        try await withApp(configure: { $0.rateLimits.paymentCheckPerCustomer = RateLimit(count: 2, window: 3600)! }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let (_, other) = try await signedInCustomer(db)
            let refresh = { (token: String) in try await client.send(.post, "/v1/orders/\(UUID())/payment/refresh", token: token) }
            for _ in 0..<2 { try await refresh(token).expectProblem(404) }
            let limited = try await refresh(token)
            _ = try limited.expectProblem(429)
            #expect(limited.headers[.retryAfter] != nil)
            try await refresh(other).expectProblem(404)
        }
    }
}
