import Foundation

/// At most `count` events per `window` seconds for one key: a token bucket holding `count` that
/// refills evenly over `window`, so a burst of `count` passes and then one more every
/// `window / count` seconds.
public struct RateLimit: Hashable, Sendable {
    public let count: Int
    public let window: Int

    /// `nil` unless both are positive.
    public init?(count: Int, window: Int) {
        guard count > 0, window > 0 else { return nil }
        self.count = count
        self.window = window
    }

    /// Reads `COUNT/SECONDS`, e.g. `10/600`; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let window = Int(parts[1]), count <= 1_000_000, window <= 86_400 else {
            return nil
        }
        self.init(count: count, window: window)
    }
}

/// The limits a client meets. Password checks are limited per account and per client address so
/// that guessing is slow whichever one an attacker varies; checkouts per customer against card
/// testing; photo uploads per customer against filling the media store; payment checks per
/// customer (each one a call to the provider) against spending the shop's provider quota.
public struct RateLimits: Hashable, Sendable {
    /// Sign-ins per email from one client address; password and email changes per customer.
    public var passwordPerAccount: RateLimit
    /// Sign-ins and sign-ups per client address.
    public var passwordPerAddress: RateLimit
    public var checkoutPerCustomer: RateLimit
    public var photoPerCustomer: RateLimit
    /// Asks to settle an order's payment from the provider (`POST /v1/orders/{id}/payment/refresh`).
    public var paymentCheckPerCustomer: RateLimit

    public init(
        passwordPerAccount: RateLimit = RateLimit(count: 10, window: 600)!,
        passwordPerAddress: RateLimit = RateLimit(count: 100, window: 600)!,
        checkoutPerCustomer: RateLimit = RateLimit(count: 20, window: 3600)!,
        photoPerCustomer: RateLimit = RateLimit(count: 60, window: 3600)!,
        paymentCheckPerCustomer: RateLimit = RateLimit(count: 120, window: 600)!
    ) {
        self.passwordPerAccount = passwordPerAccount
        self.passwordPerAddress = passwordPerAddress
        self.checkoutPerCustomer = checkoutPerCustomer
        self.photoPerCustomer = photoPerCustomer
        self.paymentCheckPerCustomer = paymentCheckPerCustomer
    }

    /// How many times `passwordPerAccount` one email's sign-ins from every address together take.
    public static let accountAcrossAddresses = 10

    /// Sign-ins per email from every address together, in `passwordPerAccount`'s window.
    public var passwordPerAccountAcrossAddresses: RateLimit {
        RateLimit(count: passwordPerAccount.count * Self.accountAcrossAddresses, window: passwordPerAccount.window)!
    }
}

/// Where the rate limits' counts live. Shared by every instance of the service (PostgreSQL), so a
/// limit holds however many instances a client's requests are spread over.
public protocol RateLimiter: Sendable {
    /// Counts one event for `key` (any text, of any length) at `now` if `limit` leaves room for it.
    /// - Returns: `nil` when counted; otherwise how many seconds until `key` has room again.
    /// - Throws: `StoreUnavailable`.
    func take(_ key: String, under limit: RateLimit, now: Date) async throws -> Double?

    /// Forgets the keys whose buckets are full again by `now` (they hold no information).
    /// - Returns: how many were forgotten.
    /// - Throws: `StoreUnavailable`.
    func purge(now: Date) async throws -> Int
}
