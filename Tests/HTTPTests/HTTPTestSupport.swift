import Foundation
import Gateway
import HTTP
import Hummingbird
import HummingbirdTesting
import LiveScenes
import Logging
import NIOCore
import Postgres
import Scenes
import TestSupport
import Testing

let adminToken = "test-admin-token-0123456789"

/// Runs `body` against the whole application, in-process, on a fresh database, on the executor
/// `serve` runs it on (`PostgresEventLoop`). `configure` changes the settings (limits) first;
/// `testing` `.live` runs a real server on a loopback port instead of calling the router;
/// `itemCache` replaces the instance's item cache (see `AppResources`).
func withApp<T: Sendable>(
    adminToken: String? = adminToken, mediaURL: String? = nil, testing: TestingSetup = .router,
    itemCache: ItemCache? = nil, configure: @Sendable (inout AppConfig) -> Void = { _ in },
    _ body: @escaping @Sendable (any TestClientProtocol, TestDatabase) async throws -> T
) async throws -> T {
    try await TestDatabase.with { db in
        var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
        config.port = 0
        if let payments = ProcessInfo.processInfo.environment["STOREFRONT_TEST_PAYMENT_URL"] {
            config.payment = (payments, "sk_test_storefront")
        }
        config.mediaURL = mediaURL ?? ProcessInfo.processInfo.environment["STOREFRONT_TEST_MEDIA_URL"]
        // The whole suite shares two cores and one single-threaded localstripe: a checkout's
        // answer may wait longer than a shopper's would before it says "pending".
        config.checkoutDeadline = .seconds(60)
        configure(&config)
        let resources = AppResources(config: config, pool: db.pool, logger: Logger(label: "test"), itemCache: itemCache)
        return try await withTaskExecutorPreference(PostgresEventLoop.shared) {
            try await buildApplication(resources).test(testing) { client in try await body(client, db) }
        }
    }
}

let validItemJSON = """
    {"sku":"MUG-1","name":"Mug","description":"Stoneware","category":"kitchen","price":{"amount":1200,"currency":"JPY"},"stock":3}
    """
