import Domain
import Foundation
import MockSupport
import PropertyBased
import Scenes
import Synchronization
import Testing
import UseCase

/// The Throttle scene's checks on a mock limiter, through its container: which keys a request
/// is counted under, with which limit, in which order, and what a refusal says. The limiter's
/// own counting is `PostgresRateLimiterTests`' (on PostgreSQL), and the limits over HTTP are the
/// end-to-end tests'.
@Suite("Throttle on a mock limiter")
struct ThrottleUseCaseTests {
    struct Take: Equatable {
        let key: String
        let limit: RateLimit
        let now: Date
    }

    /// Records each `take` and refuses the keys the test names with the wait it gives.
    final class Limiter: RateLimiter {
        let takes = Mutex<[Take]>([])
        let purges = Mutex<[Date]>([])
        let refusing: @Sendable (String) -> Double?

        init(refusing: @escaping @Sendable (String) -> Double? = { _ in nil }) {
            self.refusing = refusing
        }

        func take(_ key: String, under limit: RateLimit, now: Date) async throws -> Double? {
            takes.withLock { $0.append(Take(key: key, limit: limit, now: now)) }
            return refusing(key)
        }

        func purge(now: Date) async throws -> Int {
            purges.withLock { $0.append(now) }
            return 7
        }
    }

    static let limits = RateLimits(
        passwordPerAccount: RateLimit(count: 3, window: 60)!, passwordPerAddress: RateLimit(count: 30, window: 60)!,
        checkoutPerCustomer: RateLimit(count: 5, window: 600)!, photoPerCustomer: RateLimit(count: 9, window: 900)!,
        paymentCheckPerCustomer: RateLimit(count: 11, window: 120)!)
    static let customer = Fixtures.id(70)

    func throttle(_ limiter: Limiter) -> RequestThrottle {
        ThrottleContainer(limiter: limiter, limits: Self.limits, system: Fixtures.system).throttle
    }

    @Test func aSignInIsCountedForTheAddressThenTheAccountFromItThenTheAccount() async throws {
        let limiter = Limiter()
        try await throttle(limiter).signIn(email: "Alice@Example.com", client: "192.0.2.7")
        let takes = limiter.takes.withLock { $0 }
        #expect(
            takes.map(\.key) == [
                "password:address:192.0.2.7", "password:account-from:9:192.0.2.7:alice@example.com", "password:account:alice@example.com",
            ])
        #expect(
            takes.map(\.limit) == [
                Self.limits.passwordPerAddress, Self.limits.passwordPerAccount, RateLimit(count: 30, window: 60)!,
            ])
        #expect(takes.allSatisfy { $0.now == Fixtures.now })
    }

    @Test func anAddressOutOfAttemptsStopsBeforeTheAccountIsCounted() async throws {
        let limiter = Limiter { $0.hasPrefix("password:address:") ? 12.2 : nil }
        await #expect(throws: TooManyRequests(retryAfter: 13, limited: "password attempts from this address")) {
            try await throttle(limiter).signIn(email: "alice@example.com", client: "192.0.2.7")
        }
        #expect(limiter.takes.withLock { $0.map(\.key) } == ["password:address:192.0.2.7"])
    }

    /// An email holding what made another account's key from an address drained that count:
    /// the lock-out the per-address count was there to end.
    @Test func noEmailMakesAnotherAccountsKeyFromAnAddress() async throws {
        let limiter = Limiter()
        try await throttle(limiter).signIn(email: "amy@example.com", client: "198.51.100.20")
        try await throttle(limiter).signIn(email: "amy@example.com:address:198.51.100.20", client: "203.0.113.1")
        try await throttle(limiter).signIn(email: "198.51.100.20:amy@example.com", client: "203.0.113.1")
        let keys = limiter.takes.withLock { $0.map(\.key) }
        #expect(Set(keys).count == keys.count - 1, "only the attacker's address is counted twice: \(keys)")
    }

    @Test func anAccountOutOfAttemptsIsRefusedWithItsOwnReason() async throws {
        let fromHere = Limiter { $0.hasPrefix("password:account-from:9:192.0.2.7:") ? 0.01 : nil }
        await #expect(throws: TooManyRequests(retryAfter: 1, limited: "sign-in attempts for this account from this address")) {
            try await throttle(fromHere).signIn(email: "alice@example.com", client: "192.0.2.7")
        }
        let limiter = Limiter { $0 == "password:account:alice@example.com" ? 0.01 : nil }
        await #expect(throws: TooManyRequests(retryAfter: 1, limited: "sign-in attempts for this account")) {
            try await throttle(limiter).signIn(email: "alice@example.com", client: "192.0.2.7")
        }
    }

    /// Any spelling of an email PostgreSQL's `lower()` takes to the same account shares one
    /// count: changing the case, widening the letters or adding accents gives no fresh allowance.
    @Test func everySpellingOfAnEmailSharesOneCount() async throws {
        let local = Gen.character(in: "a"..."z").string(of: 1...12)
        await propertyCheck(count: 200, input: local, Gen.bool, Gen.bool) { name, upper, wide in
            var spelled = upper ? name.uppercased() : name
            if wide {
                // Fullwidth forms (U+FF21 to U+FF5A) of the ASCII letters.
                spelled = String(
                    String.UnicodeScalarView(
                        spelled.unicodeScalars.map { Unicode.Scalar($0.value + 0xFEE0)! }))
            }
            let limiter = Limiter()
            try? await throttle(limiter).signIn(email: "\(name)@example.com", client: "c")
            try? await throttle(limiter).signIn(email: "\(spelled)@EXAMPLE.com", client: "c")
            let keys = limiter.takes.withLock { $0.map(\.key) }.filter { $0.hasPrefix("password:account") }
            #expect(keys.count == 4 && keys[0] == keys[2] && keys[1] == keys[3], "\(spelled)")
        }
    }

    @Test func eachCheckIsCountedUnderItsOwnLimit() async throws {
        let limiter = Limiter()
        let throttle = throttle(limiter)
        try await throttle.signUp(client: "2001:db8::1")
        try await throttle.passwordCheck(customerID: Self.customer)
        try await throttle.checkout(customerID: Self.customer)
        try await throttle.photoUpload(customerID: Self.customer)
        try await throttle.paymentCheck(customerID: Self.customer)
        let id = Self.customer.uuidString.lowercased()
        #expect(
            limiter.takes.withLock { $0 } == [
                Take(key: "password:address:2001:db8::1", limit: Self.limits.passwordPerAddress, now: Fixtures.now),
                Take(key: "password:customer:\(id)", limit: Self.limits.passwordPerAccount, now: Fixtures.now),
                Take(key: "checkout:customer:\(id)", limit: Self.limits.checkoutPerCustomer, now: Fixtures.now),
                Take(key: "photo:customer:\(id)", limit: Self.limits.photoPerCustomer, now: Fixtures.now),
                Take(key: "payment-check:customer:\(id)", limit: Self.limits.paymentCheckPerCustomer, now: Fixtures.now),
            ])
    }

    /// Retry-After is whole seconds, rounded up (never 0, which would invite a retry that fails).
    @Test func aRefusalSaysWhenToComeBackInWholeSecondsRoundedUp() async {
        await propertyCheck(count: 200, input: Gen.double(in: 0.000_001...86_400)) { wait in
            let limiter = Limiter { _ in wait }
            do {
                try await throttle(limiter).checkout(customerID: Self.customer)
                Issue.record("a refused checkout passed")
            } catch let refusal as TooManyRequests {
                #expect(refusal.retryAfter == max(1, Int(wait.rounded(.up))))
                #expect(refusal.limited == "checkouts for this customer")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func purgeForgetsAsOfNow() async throws {
        let limiter = Limiter()
        #expect(try await throttle(limiter).purge() == 7)
        #expect(limiter.purges.withLock { $0 } == [Fixtures.now])
    }
}
