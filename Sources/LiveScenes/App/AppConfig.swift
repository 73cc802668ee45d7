import Domain
import Foundation
import Gateway
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
    /// The secret the provider signs its webhooks with (`PAYMENT_WEBHOOK_SECRET`, `whsec_...`);
    /// nil turns `POST /v1/payments/webhook` off (404).
    public var paymentWebhookSecret: String?
    /// The most a checkout answer waits for the provider (`CHECKOUT_DEADLINE_SECONDS`, 1 to 120);
    /// past it the answer is 202 pending and the payment is settled later.
    public var checkoutDeadline: Duration = .seconds(10)
    /// How long stock stays reserved for a payment waiting on the customer's 3-D Secure
    /// (`PAYMENT_ACTION_TIMEOUT_SECONDS`, 10 to 86400); then the payment is cancelled.
    public var paymentActionTimeout: Duration = .seconds(900)
    /// The most orders one customer may have waiting for payment when checking out again
    /// (`MAX_ORDERS_AWAITING_PAYMENT`, 1 to 100): each holds its stock until paid or timed out.
    public var maxOrdersAwaitingPayment = CheckoutRequest.defaultAwaitingPaymentLimit
    /// The media API that stores review photos and item images (`MEDIA_API_URL`); nil refuses
    /// uploads.
    public var mediaURL: String?
    /// Where the media API's files are published (`MEDIA_PUBLIC_URL`): an image's URL is this and
    /// its file name. Without it, `MEDIA_API_URL` + `/photo`, where the media API serves them.
    public var mediaPublicURL: String?

    /// The published URL prefix of media files, if any.
    public var mediaFilesURL: String? { mediaPublicURL ?? mediaURL.map { ($0.hasSuffix("/") ? String($0.dropLast()) : $0) + "/photo" } }
    /// How long one upload to the media API may take (`MEDIA_TIMEOUT_SECONDS`, 1 to 120).
    public var mediaTimeout: Duration = .seconds(30)
    /// How long a connection may sit idle (no request, or a request head not yet complete) before
    /// it is closed (`HTTP_IDLE_TIMEOUT_SECONDS`, 1 to 3600).
    public var httpIdleTimeout: Duration = .seconds(60)
    /// How long a request may take to arrive in full, body included, from its head
    /// (`HTTP_REQUEST_TIMEOUT_SECONDS`, 1 to 3600): a 10 MiB photo at 1 Mbit/s takes 80 s.
    public var httpRequestTimeout: Duration = .seconds(120)
    /// Connections served at once (`HTTP_MAX_CONNECTIONS`, 1 to 100000); past it new ones wait in
    /// the listen backlog until one closes.
    public var httpMaxConnections = 1000
    /// Items an instance keeps in memory for `GET /v1/items/{id}` and the catalog's pages (`ITEM_CACHE_SIZE`, 0 to
    /// 1000000; 0 turns the cache off). It works only while the instance hears PostgreSQL's change
    /// notifications, so never behind a transaction pooler (`ItemCache`).
    public var itemCacheSize = 10_000
    /// Whether `serve` listens for PostgreSQL's notifications of changed items, which the item
    /// cache needs: not when it is off, nor behind a transaction pooler (LISTEN needs a session of
    /// its own).
    public var listensForItemChanges: Bool { itemCacheSize > 0 && !databaseBehindTransactionPooler }
    /// Server-side limit on one SQL statement (`DATABASE_STATEMENT_TIMEOUT_MS`, 10 to 600000);
    /// a statement past it is cancelled and its request answered 503. Migrations are exempt.
    public var databaseStatementTimeoutMilliseconds = 5000
    /// How long a statement may wait for a row or table lock (`DATABASE_LOCK_TIMEOUT_MS`, 10 to
    /// 600000) before it gives up (503).
    public var databaseLockTimeoutMilliseconds = 2000
    /// `DATABASE_POOLER=transaction`: `DATABASE_URL` names a pooler in transaction mode (PgBouncer's
    /// `pool_mode = transaction`), so statements are sent unnamed and the session settings and
    /// timeouts are the role's defaults (the service checks them at start); `none` (the default)
    /// for a direct connection or a pooler in session mode.
    public var databaseBehindTransactionPooler = false
    /// Photo uploads one instance reads at once (`UPLOAD_MAX_CONCURRENT`, 1 to 1000); past it an
    /// upload is refused with 503 and Retry-After before its body is read.
    public var uploadMaxConcurrent = 32
    /// Of those, how many one customer's uploads may hold at once (`UPLOAD_MAX_PER_CUSTOMER`, 1
    /// to 1000); past it the customer's upload is refused with 429 and Retry-After before its
    /// body is read, so that stalled uploads of one customer cannot hold every place. The default
    /// lets an app send a review's five photos (`ReviewRules.maxPhotos`) at once.
    public var uploadMaxPerCustomer = 5
    /// Of those, how many uploads from one client address may hold at once
    /// (`UPLOAD_MAX_PER_ADDRESS`, 1 to 1000; the address as `TRUSTED_PROXY_HOPS` reads it): past
    /// it 429 and Retry-After, so that a few free accounts' stalled uploads cannot hold every
    /// place either.
    public var uploadMaxPerAddress = 8
    /// How long a resumable upload lives after its last byte (`RESUMABLE_UPLOAD_TTL_SECONDS`, 60
    /// to 604800, default a day) before the purge removes it with its bytes; a finished one keeps
    /// the answer it got as long.
    public var resumableUploadTTL: Duration = .seconds(86_400)
    /// The most bytes all unfinished resumable uploads hold together, in the primary database
    /// (`RESUMABLE_UPLOAD_MAX_PENDING_MIB`, 1 to 1048576, default 1024): past it a request's
    /// bytes are refused with 503, so that free accounts' uploads left unfinished cannot fill its
    /// disk. Racing uploads may pass it by a piece (256 KiB) each.
    public var resumableUploadPendingLimit = 1024 << 20
    /// Whether a resumable upload's first request gets the interim `104` that tells the client
    /// where to resume before its body is read (`RESUMABLE_UPLOAD_INTERIM_RESPONSES`, default
    /// true). Turn it off behind a proxy that cannot pass a 1xx answer on: nginx reads one as the
    /// final answer and holds the request. Clients then start an upload with an empty request
    /// (`Upload-Complete: ?0`), whose 201 says where it is.
    public var resumableUploadInterimResponses = true
    /// Password hashes computed at once (`PASSWORD_HASH_CONCURRENCY`, default one per core); the
    /// proxies whose `X-Forwarded-For` entries are trusted (`TRUSTED_PROXY_HOPS`, default 0); the
    /// rate limits (`RATE_LIMIT_*`); how often expired sessions and limits are purged
    /// (`PURGE_INTERVAL_SECONDS`). Read by `readProtections` (AppConfig+Protections.swift).
    public var passwordHashConcurrency = AppConfig.cores
    public var trustedProxyHops = 0
    public var rateLimits = RateLimits()
    public var purgeInterval: Duration = .seconds(600)
    /// Whether prices include consumption tax and how a fraction of it is rounded
    /// (`PRICES_INCLUDE_TAX`, `TAX_ROUNDING`).
    public var taxPolicy = TaxPolicy()
    /// The shop on its qualified invoices (`INVOICE_ISSUER_NAME`, `INVOICE_REGISTRATION_NUMBER`);
    /// `nil` until both are set.
    public var invoiceIssuer: InvoiceIssuer?
    /// The apps the shop's links open (`APPLE_APP_IDS`, `APP_STORE_ID`); `nil` when none is set.
    public var appLinks: AppLinks?
    /// APNs, which pushes go through (`APNS_*`); `nil` when unset: pushes are queued, not sent.
    public var apns: APNsSettings?
    /// The whole environment, where generated http gateways find the base URL their spec names.
    public var environment: [String: String] = [:]

    /// The admin token `Tools/serve` sets for development when ADMIN_TOKEN is unset. Everyone can
    /// read it here, so it is refused unless the service listens on loopback only.
    public static let developmentAdminToken = "dev-admin-token-change-me"

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
    /// `DATABASE_POOL_SIZE`, `DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_LOCK_TIMEOUT_MS`, `DATABASE_POOLER`,
    /// `HTTP_IDLE_TIMEOUT_SECONDS`, `HTTP_REQUEST_TIMEOUT_SECONDS`, `HTTP_MAX_CONNECTIONS`, `ITEM_CACHE_SIZE`, `UPLOAD_MAX_CONCURRENT`, `UPLOAD_MAX_PER_CUSTOMER`, `UPLOAD_MAX_PER_ADDRESS`,
    /// `RESUMABLE_UPLOAD_TTL_SECONDS`, `RESUMABLE_UPLOAD_MAX_PENDING_MIB`, `RESUMABLE_UPLOAD_INTERIM_RESPONSES`, `SHOP_CURRENCY`, `PAYMENT_API_URL` with `PAYMENT_API_KEY`, `PAYMENT_TIMEOUT_SECONDS`,
    /// `CHECKOUT_DEADLINE_SECONDS`, `PAYMENT_ACTION_TIMEOUT_SECONDS`, `MAX_ORDERS_AWAITING_PAYMENT`, `PAYMENT_WEBHOOK_SECRET`,
    /// `MEDIA_API_URL`, `MEDIA_TIMEOUT_SECONDS`, and the protections `readProtections` reads.
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
        func integer(_ name: String, _ range: ClosedRange<Int>) -> Int? { environment.integer(name, in: range, problems: &problems) }
        if let value = integer("PORT", 1...65535) { config.port = value }
        if let token = environment["ADMIN_TOKEN"], !token.isEmpty {
            if token.utf8.count < 16 {
                problems.append("ADMIN_TOKEN: must be at least 16 characters")
            } else if token == developmentAdminToken && !isLoopback(config.host) {
                problems.append(
                    "ADMIN_TOKEN: the development token Tools/serve sets is public; set your own to listen on \(config.host)")
            } else {
                config.adminToken = token
            }
        }
        if let level = environment["LOG_LEVEL"] {
            if let value = Logger.Level(rawValue: level.lowercased()) {
                config.logLevel = value
            } else {
                problems.append("LOG_LEVEL: must be one of trace, debug, info, notice, warning, error, critical, got '\(level)'")
            }
        }
        if let value = integer("DATABASE_POOL_SIZE", 1...200) { config.databasePoolSize = value }
        if let value = integer("DATABASE_STATEMENT_TIMEOUT_MS", 10...600_000) { config.databaseStatementTimeoutMilliseconds = value }
        if let value = integer("DATABASE_LOCK_TIMEOUT_MS", 10...600_000) { config.databaseLockTimeoutMilliseconds = value }
        if let value = integer("HTTP_IDLE_TIMEOUT_SECONDS", 1...3600) { config.httpIdleTimeout = .seconds(value) }
        if let value = integer("HTTP_REQUEST_TIMEOUT_SECONDS", 1...3600) { config.httpRequestTimeout = .seconds(value) }
        if let value = integer("HTTP_MAX_CONNECTIONS", 1...100_000) { config.httpMaxConnections = value }
        if let value = integer("ITEM_CACHE_SIZE", 0...1_000_000) { config.itemCacheSize = value }
        if let value = integer("UPLOAD_MAX_CONCURRENT", 1...1000) { config.uploadMaxConcurrent = value }
        if let value = integer("UPLOAD_MAX_PER_CUSTOMER", 1...1000) { config.uploadMaxPerCustomer = value }
        if let value = integer("UPLOAD_MAX_PER_ADDRESS", 1...1000) { config.uploadMaxPerAddress = value }
        if config.uploadMaxPerAddress < config.uploadMaxPerCustomer {
            problems.append(
                "UPLOAD_MAX_PER_ADDRESS: must be at least UPLOAD_MAX_PER_CUSTOMER (\(config.uploadMaxPerCustomer)): a customer sends from one address"
            )
        }
        if let value = integer("RESUMABLE_UPLOAD_TTL_SECONDS", 60...604_800) { config.resumableUploadTTL = .seconds(value) }
        if let value = integer("RESUMABLE_UPLOAD_MAX_PENDING_MIB", 1...1_048_576) { config.resumableUploadPendingLimit = value << 20 }
        switch environment["DATABASE_POOLER"] {
        case nil, "none": break
        case "transaction":
            config.databaseBehindTransactionPooler = true
            for name in ["DATABASE_STATEMENT_TIMEOUT_MS", "DATABASE_LOCK_TIMEOUT_MS"] where environment[name] != nil {
                problems.append("\(name): behind a transaction pooler the timeouts are the role's defaults (ALTER ROLE ... SET); unset it")
            }
        case let text?: problems.append("DATABASE_POOLER: must be none or transaction, got '\(text)'")
        }
        if let value = environment.bool("RESUMABLE_UPLOAD_INTERIM_RESPONSES", problems: &problems) {
            config.resumableUploadInterimResponses = value
        }
        switch (environment["PAYMENT_API_URL"], environment["PAYMENT_API_KEY"]) {
        case (nil, nil): break
        case (let url?, let key?) where Self.isHTTPURL(url) && !key.isEmpty:
            config.payment = (url.hasSuffix("/") ? String(url.dropLast()) : url, key)
        default:
            problems.append("PAYMENT_API_URL, PAYMENT_API_KEY: set both (an http(s) URL and the secret key) or neither")
        }
        if let seconds = integer("PAYMENT_TIMEOUT_SECONDS", 1...60) { config.paymentTimeout = .seconds(seconds) }
        if let seconds = integer("CHECKOUT_DEADLINE_SECONDS", 1...120) { config.checkoutDeadline = .seconds(seconds) }
        if let secret = environment["PAYMENT_WEBHOOK_SECRET"], !secret.isEmpty {
            if secret.utf8.count >= 16 {
                config.paymentWebhookSecret = secret
            } else {
                problems.append("PAYMENT_WEBHOOK_SECRET: must be at least 16 characters (the whsec_... of the webhook endpoint)")
            }
        }
        if let seconds = integer("PAYMENT_ACTION_TIMEOUT_SECONDS", 10...86_400) { config.paymentActionTimeout = .seconds(seconds) }
        if let count = integer("MAX_ORDERS_AWAITING_PAYMENT", 1...100) { config.maxOrdersAwaitingPayment = count }
        if let seconds = integer("MEDIA_TIMEOUT_SECONDS", 1...120) { config.mediaTimeout = .seconds(seconds) }
        if let url = environment["MEDIA_API_URL"], !url.isEmpty {
            if Self.isHTTPURL(url) {
                config.mediaURL = url
            } else {
                problems.append("MEDIA_API_URL: must be an http(s) URL, got '\(url)'")
            }
        }
        if let url = environment["MEDIA_PUBLIC_URL"], !url.isEmpty {
            if Self.isHTTPURL(url) {
                config.mediaPublicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
            } else {
                problems.append("MEDIA_PUBLIC_URL: must be an http(s) URL, got '\(url)'")
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
        config.readTax(environment, problems: &problems)
        config.readAppLinks(environment, problems: &problems)
        config.readPush(environment, problems: &problems)
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        return config
    }
}

/// Whether `host` is a loopback name or address, reachable from this machine only: `localhost`,
/// `::1`, or a dotted IPv4 address in 127.0.0.0/8 (a name such as `127.example.com` is not).
func isLoopback(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "127" else { return false }
    return parts.allSatisfy { part in part.utf8.allSatisfy { (48...57).contains($0) } && UInt8(part) != nil }
}

/// Configuration that cannot start the service.
extension AppConfig {
    /// Whether `text` is an absolute http or https URL with a host and no query, fragment or
    /// credentials (paths are appended to it): what every setting naming a service to call or a
    /// place files are published at must be. (`URL(string:)` would
    /// percent-encode a space, so one is refused first.)
    static func isHTTPURL(_ text: String) -> Bool {
        guard !text.contains(where: \.isWhitespace), let url = URL(string: text), let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil, url.user == nil, url.password == nil
        else { return false }
        return ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }
}

public struct ConfigError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String { "invalid configuration: " + problems.joined(separator: "; ") }
}

extension [String: String] {
    /// The variable's value, `nil` when it is unset or set to nothing (`APNS_URL=` means unset).
    func setting(_ name: String) -> String? {
        self[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The integer the variable holds, `nil` when it is unset; a value that is no integer in
    /// `range` is `nil` too, with a line in `problems` saying so.
    func integer(_ name: String, in range: ClosedRange<Int>, problems: inout [String]) -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            problems.append("\(name): must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            return nil
        }
        return value
    }

    /// `true` or `false` as the variable says, `nil` when it is unset; another value is `nil`
    /// too, with a line in `problems` saying so.
    func bool(_ name: String, problems: inout [String]) -> Bool? {
        guard let text = self[name] else { return nil }
        guard let value = Bool(text) else {
            problems.append("\(name): must be true or false, got '\(text)'")
            return nil
        }
        return value
    }
}
