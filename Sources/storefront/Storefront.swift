import ArgumentParser
import Foundation
import HTTP
import LiveScenes
import Logging
import Postgres
import Scenes

@main
struct Storefront: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefront",
        abstract: "The Storefront e-commerce service.",
        discussion: """
            Configuration comes from the environment: DATABASE_URL (required), HOST (127.0.0.1), \
            PORT (8080), ADMIN_TOKEN (admin API off when unset), LOG_LEVEL (info), \
            DATABASE_POOL_SIZE (10), DATABASE_STATEMENT_TIMEOUT_MS (5000), DATABASE_LOCK_TIMEOUT_MS (2000), \
            DATABASE_POOLER (none; transaction behind PgBouncer's transaction mode), \
            HTTP_IDLE_TIMEOUT_SECONDS (60), HTTP_REQUEST_TIMEOUT_SECONDS (120), HTTP_MAX_CONNECTIONS (1000), ITEM_CACHE_SIZE (10000; 0: off), \
            UPLOAD_MAX_CONCURRENT (32), UPLOAD_MAX_PER_CUSTOMER (5), UPLOAD_MAX_PER_ADDRESS (8), \
            RESUMABLE_UPLOAD_TTL_SECONDS (86400), RESUMABLE_UPLOAD_MAX_PENDING_MIB (1024), \
            RESUMABLE_UPLOAD_INTERIM_RESPONSES (true: off behind nginx), \
            SHOP_CURRENCY (JPY), PAYMENT_API_URL and PAYMENT_API_KEY (checkout off when unset), \
            PAYMENT_TIMEOUT_SECONDS (10), CHECKOUT_DEADLINE_SECONDS (10), PAYMENT_ACTION_TIMEOUT_SECONDS (900), MAX_ORDERS_AWAITING_PAYMENT (5), \
            PAYMENT_WEBHOOK_SECRET (webhooks off when unset), MEDIA_API_URL (photo uploads off when unset), MEDIA_PUBLIC_URL (MEDIA_API_URL/photo), MEDIA_TIMEOUT_SECONDS (30). \
            Tax and invoices: PRICES_INCLUDE_TAX (true), TAX_ROUNDING (floor, half_up or ceiling), \
            INVOICE_ISSUER_NAME and INVOICE_REGISTRATION_NUMBER (invoices off when unset). \
            Universal links: APPLE_APP_IDS (TEAMID.bundle.id, comma-separated; the association file off when unset), \
            APP_STORE_ID (the Smart App Banner of the link pages). \
            Pushes: APNS_TEAM_ID, APNS_KEY_ID, APNS_PRIVATE_KEY_FILE and APNS_TOPIC (pushes queued, not sent, when unset), \
            APNS_URL (https://api.push.apple.com), APNS_CA_FILE (the system's roots). \
            Protections: PASSWORD_HASH_CONCURRENCY (one per core), RATE_LIMIT_PASSWORD_PER_ACCOUNT (10/600), \
            RATE_LIMIT_PASSWORD_PER_ADDRESS (100/600), RATE_LIMIT_CHECKOUT_PER_CUSTOMER (20/3600), \
            RATE_LIMIT_PHOTO_PER_CUSTOMER (60/3600), RATE_LIMIT_PAYMENT_CHECK_PER_CUSTOMER (120/600) as COUNT/SECONDS, \
            TRUSTED_PROXY_HOPS (0: X-Forwarded-For \
            ignored), PURGE_INTERVAL_SECONDS (600). README.md's Configuration table says what each does.
            """,
        subcommands: [Serve.self, Migrate.self, Seed.self, Reconcile.self]
    )
}

/// Options every subcommand shares.
struct CommonOptions: ParsableArguments {
    @Option(help: "Directory of the NNNN_name.sql migration files.")
    var migrations: String = "Migrations"
}

/// Reads the configuration and builds the resources, or exits with one line saying what is wrong.
func startResources(label: String) throws -> AppResources {
    let config: AppConfig
    do {
        config = try AppConfig.fromEnvironment(ProcessInfo.processInfo.environment)
    } catch {
        FileHandle.standardError.write(Data("storefront: \(error)\n".utf8))
        throw ExitCode(2)
    }
    LoggingSystem.bootstrap { label in
        var handler = DeferredMetadataLogHandler(StreamLogHandler.standardError(label: label))
        handler.logLevel = config.logLevel
        return handler
    }
    return AppResources.live(config, logger: Logger(label: label))
}

/// Checks the pooled session settings when behind a transaction pooler and applies the migrations,
/// or exits with one line naming the failure.
func runMigrations(_ resources: AppResources, directory: String) async throws {
    do {
        if resources.config.databaseBehindTransactionPooler { try await resources.pool.checkPooledSessionSettings() }
        let migrations = try Migration.load(from: URL(fileURLWithPath: directory))
        let applied = try await Migrator(pool: resources.pool).migrate(migrations)
        resources.logger.info("migrations: \(applied.count) applied, \(migrations.count - applied.count) already in place")
    } catch {
        FileHandle.standardError.write(Data("storefront: \(error)\n".utf8))
        await resources.pool.shutdown()
        throw ExitCode(1)
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending migrations, then serve HTTP on HOST:PORT until SIGTERM or SIGINT.")
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let resources = try startResources(label: "storefront")
        // Built first, so a build without its API document stops before touching the database.
        let application = Result { try buildApplication(resources) }
        if case .failure(let error) = application {
            FileHandle.standardError.write(Data("storefront: \(error)\n".utf8))
            await resources.pool.shutdown()
            throw ExitCode(1)
        }
        try await runMigrations(resources, directory: options.migrations)
        // Not "serving" yet: the server says so itself once it listens, and a taken port fails
        // after this line.
        resources.logger.info("starting the server on http://\(resources.config.host):\(resources.config.port)")
        // The server's tasks run on the threads that also watch the database sockets, so a query's
        // answer resumes its request without waking another thread.
        try await withTaskExecutorPreference(PostgresEventLoop.shared) {
            try await application.get().runService()
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending migrations and exit.")
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let resources = try startResources(label: "storefront.migrate")
        try await runMigrations(resources, directory: options.migrations)
        await resources.pool.shutdown()
    }
}

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load the deterministic demo catalog, priced in SHOP_CURRENCY, only into an empty catalog.")
    @Option(
        name: [.customLong("items"), .customLong("count")],
        help: "How many demo items to load, 0 to 1000000, with their variants (about 3.75 each: --items 50000 makes some 190,000).")
    var count: Int = 1200

    func validate() throws {
        guard (0...1_000_000).contains(count) else { throw ArgumentParser.ValidationError("--items must be from 0 to 1000000") }
    }

    func run() async throws {
        let resources = try startResources(label: "storefront.seed")
        do {
            let added = try await CatalogContainer.live(resources).useCase.seedDemoCatalog(count: count)
            print(added > 0 ? "seeded \(added) demo items" : "catalog not empty: nothing seeded")
        } catch {
            // 42P01, undefined_table: the catalog's tables are not there yet.
            let unmigrated = if case .server(let info) = error as? PostgresError { info.sqlState == "42P01" } else { false }
            let reason = unmigrated ? "the database has no catalog tables: run `storefront migrate` first" : "\(error)"
            FileHandle.standardError.write(Data("storefront: seeding failed: \(reason)\n".utf8))
            await resources.pool.shutdown()
            throw ExitCode(1)
        }
        await resources.pool.shutdown()
    }
}

struct Reconcile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Settle orders left pending_payment or refund_pending, and staff refunds left pending, by asking the payment API what became of them.",
        discussion: """
            serve also does this every 30 seconds. Orders and refunds changed less than twice the longest \
            payment call (PAYMENT_TIMEOUT_SECONDS x 3 attempts + backoff) + 30 s ago are never touched: \
            their checkout, cancel or refund may still be talking to the payment API. A pass also cancels \
            the payments of orders whose 3-D Secure wait (PAYMENT_ACTION_TIMEOUT_SECONDS) has ended, \
            whatever --older-than says, and releases their stock.
            """)
    @Option(help: "Only orders and refunds unchanged for at least this many seconds (never fewer than the minimum above).")
    var olderThan: Int = 0

    func run() async throws {
        let resources = try startResources(label: "storefront.reconcile")
        guard let reconciler = OrderContainer.live(resources).reconciler else {
            FileHandle.standardError.write(Data("storefront: PAYMENT_API_URL and PAYMENT_API_KEY must be set to reconcile\n".utf8))
            await resources.pool.shutdown()
            throw ExitCode(2)
        }
        do {
            let report = try await reconciler.reconcile(olderThan: .seconds(olderThan))
            print(
                "paid \(report.paid), failed \(report.failed), refunded \(report.refunded), refunds failed \(report.refundsFailed), "
                    + "still pending \(report.stillPending)")
        } catch {
            FileHandle.standardError.write(Data("storefront: reconciliation failed: \(error)\n".utf8))
            await resources.pool.shutdown()
            throw ExitCode(1)
        }
        await resources.pool.shutdown()
    }
}
