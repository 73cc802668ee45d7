import Domain
import Foundation

/// Checks a request against the rate limits before any costly or risky work is done for it.
/// Each check counts the request, whether the work then succeeds or not.
public struct RequestThrottle: Sendable {
    let limiter: any RateLimiter
    let limits: RateLimits
    let system: SystemContext

    public init(limiter: any RateLimiter, limits: RateLimits, system: SystemContext) {
        self.limiter = limiter
        self.limits = limits
        self.system = system
    }

    /// A sign-in attempt: counted for the client's address, then for the email (`accountKey`)
    /// from that address, then for the email from every address. The email's own limit from one
    /// address is `passwordPerAccount`; from all of them together,
    /// `RateLimits.accountAcrossAddresses` times it: anyone knowing a customer's email locked them out of signing in by guessing
    /// wrong a few times (the count was the email's alone), where now they lock out only their
    /// own address unless they guess from many, while guesses spread over many addresses stay
    /// bounded for the account.
    /// - Throws: `TooManyRequests`, `StoreUnavailable`.
    public func signIn(email: String, client: String) async throws {
        try await take("password:address:\(client)", limits.passwordPerAddress, "password attempts from this address")
        let account = Self.accountKey(email)
        // The address's length first: no email, whatever it holds, makes another pair's key.
        try await take(
            "password:account-from:\(client.count):\(client):\(account)", limits.passwordPerAccount,
            "sign-in attempts for this account from this address")
        try await take("password:account:\(account)", limits.passwordPerAccountAcrossAddresses, "sign-in attempts for this account")
    }

    /// The key an email's sign-ins are counted under. It folds case, diacritics and width, so it is
    /// coarser than the database's match of an email to its account (`lower(email)`): no spelling
    /// of an account's email starts a count of its own. (`lowercased()` alone was not: it maps
    /// U+0130 to "i" and a combining dot where PostgreSQL's `lower()` maps it to "i", so each "i"
    /// in an email gave a second allowance.) Emails that only look alike share a count.
    static func accountKey(_ email: String) -> String {
        AccountRules.normalizedEmail(email).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// A sign-up (it hashes a password like a sign-in): counted for the client's address.
    /// - Throws: `TooManyRequests`, `StoreUnavailable`.
    public func signUp(client: String) async throws {
        try await take("password:address:\(client)", limits.passwordPerAddress, "password attempts from this address")
    }

    /// A signed-in customer's current password checked (password or email change).
    /// - Throws: `TooManyRequests`, `StoreUnavailable`.
    public func passwordCheck(customerID: UUID) async throws {
        try await take("password:customer:\(customerID.lowercasedText)", limits.passwordPerAccount, "password attempts for this account")
    }

    /// A checkout attempt (each one may charge a card).
    /// - Throws: `TooManyRequests`, `StoreUnavailable`.
    public func checkout(customerID: UUID) async throws {
        try await take("checkout:customer:\(customerID.lowercasedText)", limits.checkoutPerCustomer, "checkouts for this customer")
    }

    /// A review photo upload.
    /// - Throws: `TooManyRequests`, `StoreUnavailable`.
    public func photoUpload(customerID: UUID) async throws {
        try await take("photo:customer:\(customerID.lowercasedText)", limits.photoPerCustomer, "photo uploads for this customer")
    }

    /// A payment settled from the provider on the customer's asking: a call to the provider each,
    /// whose quota is the whole shop's.
    /// - Throws: `TooManyRequests`, `StoreUnavailable`.
    public func paymentCheck(customerID: UUID) async throws {
        try await take(
            "payment-check:customer:\(customerID.lowercasedText)", limits.paymentCheckPerCustomer, "payment checks for this customer")
    }

    /// Forgets the counts that no longer limit anything.
    /// - Returns: how many keys were forgotten.
    /// - Throws: `StoreUnavailable`.
    public func purge() async throws -> Int {
        try await limiter.purge(now: system.now())
    }

    private func take(_ key: String, _ limit: RateLimit, _ limited: String) async throws {
        if let wait = try await limiter.take(key, under: limit, now: system.now()) {
            throw TooManyRequests(retryAfter: Int(wait.rounded(.up)), limited: limited)
        }
    }
}
