import Domain
import Foundation
import Gateway
import Logging
import Postgres

/// What every scene's live container is built from: the database pool, the configuration, time
/// and ids, the logger. One per process; nothing in it assumes it is the only instance.
public struct AppResources: Sendable {
    public let config: AppConfig
    public let pool: PostgresPool
    public let system: SystemContext
    public let logger: Logger
    /// The one password hasher of this instance: its bound on hashes computed at once
    /// (`config.passwordHashConcurrency`) holds across every scene that checks passwords.
    public let passwordHasher: any PasswordHasher
    /// The bounds on uploads this instance reads at once (`config.uploadMaxConcurrent`, of which
    /// `config.uploadMaxPerCustomer` for one customer and `config.uploadMaxPerAddress` for one
    /// client address), shared by every route that takes one.
    public let uploadPlaces: UploadPlaces
    /// Where uploads are written on their way in (the system's temporary directory), on
    /// swift-nio's file thread pool.
    public let fileSpool: any FileSpool
    /// Items as this instance last read them (`ITEM_CACHE_SIZE`); it answers only while
    /// `ItemCacheListener` hears PostgreSQL's change notifications, which `serve` runs. The scenes
    /// that change items forget them here once their change has committed.
    public let itemCache: ItemCache
    /// The catalog's facet counts and text searches this instance runs at once: half the pool (at
    /// least one), so that however many clients ask, the other routes keep half the connections,
    /// and shoppers searching at once seldom meet the bound (a quarter refused many).
    public let catalogScans: ConcurrencyLimit

    /// - Parameter itemCache: the tests' own (one no listener feeds); by default one of
    ///   `ITEM_CACHE_SIZE` items.
    public init(config: AppConfig, pool: PostgresPool, system: SystemContext = .live, logger: Logger, itemCache: ItemCache? = nil) {
        self.config = config
        self.pool = pool
        self.system = system
        self.logger = logger
        self.passwordHasher = PBKDF2PasswordHasher(maxConcurrent: config.passwordHashConcurrency)
        self.uploadPlaces = UploadPlaces(
            maximum: config.uploadMaxConcurrent, perCustomer: config.uploadMaxPerCustomer, perAddress: config.uploadMaxPerAddress)
        self.itemCache = itemCache ?? ItemCache(capacity: config.listensForItemChanges ? config.itemCacheSize : 0)
        self.catalogScans = ConcurrencyLimit(maximum: max(1, config.databasePoolSize / 2))
        self.fileSpool = NIOFileSpool(directory: FileManager.default.temporaryDirectory.appendingPathComponent("storefront-uploads"))
    }

    /// Opens nothing yet: the pool connects on first use.
    public static func live(_ config: AppConfig, logger: Logger) -> AppResources {
        let pool = PostgresPool(
            .init(
                connection: PostgresConnectionSettings(
                    conninfo: config.databaseURL, connectTimeoutSeconds: 3,
                    statementTimeoutMilliseconds: config.databaseStatementTimeoutMilliseconds,
                    lockTimeoutMilliseconds: config.databaseLockTimeoutMilliseconds,
                    behindTransactionPooler: config.databaseBehindTransactionPooler),
                maxConnections: config.databasePoolSize,
                acquireTimeout: .seconds(3)))
        // The threads `serve` runs requests on (Storefront.swift) run the use cases' own tasks too.
        var system = SystemContext.live
        system.taskExecutor = PostgresEventLoop.shared
        return AppResources(config: config, pool: pool, system: system, logger: logger)
    }

    /// True when PostgreSQL answers a trivial query.
    public func databaseIsReachable() async -> Bool {
        (try? await pool.query("SELECT 1")) != nil
    }
}
