import Domain
import Logging
import Postgres

/// The service's settings, read from the environment and checked at start. Each bad value
/// produces one line naming the variable, what it must be and what it was.
public struct AppConfig: Sendable {
    public var databaseURL: String
    public var host: String
    public var port: Int
    /// Bearer token of the admin API; `nil` disables it (every admin call answers 401).
    public var adminToken: String?
    public var logLevel: Logger.Level
    public var databasePoolSize: Int
    /// The shop's currency: an empty cart's zero subtotal is in it.
    public var currency: Currency
    /// The Stripe-compatible payment API (`PAYMENT_API_URL`, `PAYMENT_API_KEY`); nil disables
    /// checkout.
    public var payment: (url: String, key: String)?
    /// How long one payment API call may take before it is retried or given up
    /// (`PAYMENT_TIMEOUT_SECONDS`, 1 to 60).
    public var paymentTimeout: Duration = .seconds(10)
    /// The media API that stores review photos (`MEDIA_API_URL`); nil refuses photo uploads.
    public var mediaURL: String?
    /// How long one upload to the media API may take (`MEDIA_TIMEOUT_SECONDS`, 1 to 120).
    public var mediaTimeout: Duration = .seconds(30)
    /// Password hashes computed at once (`PASSWORD_HASH_CONCURRENCY`, default one per core); the
    /// proxies whose `X-Forwarded-For` entries are trusted (`TRUSTED_PROXY_HOPS`, default 0); the
    /// rate limits (`RATE_LIMIT_*`); how often expired sessions and limits are purged
    /// (`PURGE_INTERVAL_SECONDS`). Read by `readProtections` (AppConfig+Protections.swift).
    public var passwordHashConcurrency = AppConfig.cores
    public var trustedProxyHops = 0
    public var rateLimits = RateLimits()
    public var purgeInterval: Duration = .seconds(600)
    /// The whole environment, where generated http gateways find the base URL their spec names.
    public var environment: [String: String] = [:]

    public init(
        databaseURL: String, host: String = "127.0.0.1", port: Int = 8080, adminToken: String? = nil,
        logLevel: Logger.Level = .info, databasePoolSize: Int = 10, currency: Currency = Currency("JPY")!
    ) {
        self.databaseURL = databaseURL
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.logLevel = logLevel
        self.databasePoolSize = databasePoolSize
        self.currency = currency
    }

    /// Reads `DATABASE_URL` (required), `HOST`, `PORT`, `ADMIN_TOKEN`, `LOG_LEVEL`,
    /// `DATABASE_POOL_SIZE`, `SHOP_CURRENCY`, `PAYMENT_API_URL` with `PAYMENT_API_KEY`,
    /// `PAYMENT_TIMEOUT_SECONDS`, `MEDIA_API_URL`,
    /// `MEDIA_TIMEOUT_SECONDS`, and the protections `readProtections` reads.
    /// - Throws: `ConfigError` listing every bad or missing value.
    public static func fromEnvironment(_ environment: [String: String]) throws(ConfigError) -> AppConfig {
        var problems: [String] = []
        var config = AppConfig(databaseURL: "")
        config.environment = environment

        if let url = environment["DATABASE_URL"], !url.isEmpty {
            do {
                try PostgresConnectionSettings(conninfo: url).validate()
                config.databaseURL = url
            } catch {
                problems.append("DATABASE_URL: \(error)")
            }
        } else {
            problems.append("DATABASE_URL: must be set (postgresql://user@host:port/database or key=value form)")
        }
        if let host = environment["HOST"] {
            if host.isEmpty { problems.append("HOST: must not be empty") } else { config.host = host }
        }
        if let port = environment["PORT"] {
            if let value = Int(port), (1...65535).contains(value) {
                config.port = value
            } else {
                problems.append("PORT: must be an integer from 1 to 65535, got '\(port)'")
            }
        }
        if let token = environment["ADMIN_TOKEN"], !token.isEmpty {
            if token.count >= 16 { config.adminToken = token } else { problems.append("ADMIN_TOKEN: must be at least 16 characters") }
        }
        if let level = environment["LOG_LEVEL"] {
            if let value = Logger.Level(rawValue: level.lowercased()) {
                config.logLevel = value
            } else {
                problems.append("LOG_LEVEL: must be one of trace, debug, info, notice, warning, error, critical, got '\(level)'")
            }
        }
        if let size = environment["DATABASE_POOL_SIZE"] {
            if let value = Int(size), (1...200).contains(value) {
                config.databasePoolSize = value
            } else {
                problems.append("DATABASE_POOL_SIZE: must be an integer from 1 to 200, got '\(size)'")
            }
        }
        switch (environment["PAYMENT_API_URL"], environment["PAYMENT_API_KEY"]) {
        case (nil, nil): break
        case (let url?, let key?) where (url.hasPrefix("http://") || url.hasPrefix("https://")) && !key.isEmpty:
            config.payment = (url.hasSuffix("/") ? String(url.dropLast()) : url, key)
        default:
            problems.append("PAYMENT_API_URL, PAYMENT_API_KEY: set both (an http(s) URL and the secret key) or neither")
        }
        if let text = environment["PAYMENT_TIMEOUT_SECONDS"] {
            if let seconds = Int(text), (1...60).contains(seconds) {
                config.paymentTimeout = .seconds(seconds)
            } else {
                problems.append("PAYMENT_TIMEOUT_SECONDS: must be an integer from 1 to 60, got '\(text)'")
            }
        }
        if let text = environment["MEDIA_TIMEOUT_SECONDS"] {
            if let seconds = Int(text), (1...120).contains(seconds) {
                config.mediaTimeout = .seconds(seconds)
            } else {
                problems.append("MEDIA_TIMEOUT_SECONDS: must be an integer from 1 to 120, got '\(text)'")
            }
        }
        if let url = environment["MEDIA_API_URL"], !url.isEmpty {
            if url.hasPrefix("http://") || url.hasPrefix("https://") {
                config.mediaURL = url
            } else {
                problems.append("MEDIA_API_URL: must be an http(s) URL, got '\(url)'")
            }
        }
        if let code = environment["SHOP_CURRENCY"] {
            if let currency = Currency(code) {
                config.currency = currency
            } else {
                problems.append("SHOP_CURRENCY: must be an ISO 4217 code like JPY, got '\(code)'")
            }
        }
        config.readProtections(environment, problems: &problems)
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        return config
    }
}

/// Configuration that cannot start the service.
public struct ConfigError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String { "invalid configuration: " + problems.joined(separator: "; ") }
}
