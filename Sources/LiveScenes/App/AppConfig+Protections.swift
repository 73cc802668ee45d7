import Domain
import Foundation

extension AppConfig {
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// The settings that protect accounts and the service: `PASSWORD_HASH_CONCURRENCY` (1 to 64),
    /// `TRUSTED_PROXY_HOPS` (0 to 5), `RATE_LIMIT_PASSWORD_PER_ACCOUNT`,
    /// `RATE_LIMIT_PASSWORD_PER_ADDRESS`, `RATE_LIMIT_CHECKOUT_PER_CUSTOMER`,
    /// `RATE_LIMIT_PHOTO_PER_CUSTOMER`, `RATE_LIMIT_PAYMENT_CHECK_PER_CUSTOMER` (each `COUNT/SECONDS`), `PURGE_INTERVAL_SECONDS` (1 to 86400).
    /// Appends one line to `problems` for each bad value.
    mutating func readProtections(_ environment: [String: String], problems: inout [String]) {
        if let value = environment.integer("PASSWORD_HASH_CONCURRENCY", in: 1...64, problems: &problems) {
            passwordHashConcurrency = value
        }
        if let value = environment.integer("TRUSTED_PROXY_HOPS", in: 0...5, problems: &problems) { trustedProxyHops = value }
        let limits: [(String, WritableKeyPath<RateLimits, RateLimit>)] = [
            ("RATE_LIMIT_PASSWORD_PER_ACCOUNT", \.passwordPerAccount), ("RATE_LIMIT_PASSWORD_PER_ADDRESS", \.passwordPerAddress),
            ("RATE_LIMIT_CHECKOUT_PER_CUSTOMER", \.checkoutPerCustomer), ("RATE_LIMIT_PHOTO_PER_CUSTOMER", \.photoPerCustomer),
            ("RATE_LIMIT_PAYMENT_CHECK_PER_CUSTOMER", \.paymentCheckPerCustomer),
        ]
        for (name, path) in limits {
            guard let text = environment[name] else { continue }
            if let limit = RateLimit(text) {
                rateLimits[keyPath: path] = limit
            } else {
                problems.append("\(name): must be COUNT/SECONDS with COUNT 1 to 1000000 and SECONDS 1 to 86400, like 10/600, got '\(text)'")
            }
        }
        if let seconds = environment.integer("PURGE_INTERVAL_SECONDS", in: 1...86_400, problems: &problems) {
            purgeInterval = .seconds(seconds)
        }
    }
}
