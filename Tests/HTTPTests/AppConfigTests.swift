import Crypto
import Domain
import Foundation
import Gateway
import LiveScenes
import Logging
import Postgres
import Scenes
import Testing

@Suite("Configuration from the environment")
struct AppConfigTests {
    @Test func defaultsApplyWhenOnlyTheDatabaseIsGiven() throws {
        let config = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost:5432/db"])
        #expect(config.host == "127.0.0.1" && config.port == 8080 && config.adminToken == nil)
        #expect(config.databasePoolSize == 10)
    }

    @Test func taxAndInvoiceSettingsAreReadOrNamed() throws {
        let db = ["DATABASE_URL": "postgresql://u@localhost:5432/db"]
        let shop = try AppConfig.fromEnvironment(
            db.merging([
                "PRICES_INCLUDE_TAX": "false", "TAX_ROUNDING": "half_up", "INVOICE_ISSUER_NAME": "Storefront K.K.",
                "INVOICE_REGISTRATION_NUMBER": "T1234567890123",
            ]) { $1 })
        #expect(shop.taxPolicy == TaxPolicy(pricesIncludeTax: false, rounding: .halfUp))
        #expect(shop.invoiceIssuer?.registrationNumber == "T1234567890123")
        #expect(try AppConfig.fromEnvironment(db).invoiceIssuer == nil)
        for bad in [
            ["PRICES_INCLUDE_TAX": "yes"], ["TAX_ROUNDING": "round"], ["INVOICE_REGISTRATION_NUMBER": "T1234567890123"],
            ["INVOICE_ISSUER_NAME": "Shop", "INVOICE_REGISTRATION_NUMBER": "1234567890123"],
        ] {
            #expect(throws: ConfigError.self) { try AppConfig.fromEnvironment(db.merging(bad) { $1 }) }
        }
    }

    @Test func appLinkSettingsAreReadOrNamed() throws {
        let db = ["DATABASE_URL": "postgresql://u@localhost:5432/db"]
        let shop = try AppConfig.fromEnvironment(
            db.merging(["APPLE_APP_IDS": "ABCDE12345.jp.example.shop, ABCDE12345.jp.example.shop-beta", "APP_STORE_ID": "1234567890"]) {
                $1
            })
        #expect(shop.appLinks?.appIDs == ["ABCDE12345.jp.example.shop", "ABCDE12345.jp.example.shop-beta"])
        #expect(shop.appLinks?.appStoreID == "1234567890")
        #expect(try AppConfig.fromEnvironment(db).appLinks == nil)
        for bad in [
            ["APPLE_APP_IDS": "jp.example.shop"], ["APPLE_APP_IDS": "abcde12345.jp.example.shop"],
            ["APPLE_APP_IDS": "ABCDE12345.jp..shop"], ["APPLE_APP_IDS": "ABCDE12345.<script>"],
            ["APPLE_APP_IDS": "ABCDE12345.jp.example.shop", "APP_STORE_ID": "id123"], ["APP_STORE_ID": "1234567890"],
        ] {
            #expect(throws: ConfigError.self, "\(bad)") { try AppConfig.fromEnvironment(db.merging(bad) { $1 }) }
        }
    }

    @Test func apnsSettingsAreReadAllOrNone() throws {
        let db = ["DATABASE_URL": "postgresql://u@localhost:5432/db"]
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID()).p8")
        try P256.Signing.PrivateKey().pemRepresentation.write(to: key, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: key) }
        let all = [
            "APNS_TEAM_ID": "TEAM123456", "APNS_KEY_ID": "KEY1234567", "APNS_PRIVATE_KEY_FILE": key.path, "APNS_TOPIC": "jp.example.shop",
        ]
        let shop = try AppConfig.fromEnvironment(db.merging(all) { $1 })
        #expect(shop.apns?.baseURL == "https://api.push.apple.com" && shop.apns?.topic == "jp.example.shop")
        #expect(try AppConfig.fromEnvironment(db).apns == nil)
        #expect(
            try AppConfig.fromEnvironment(db.merging(all) { $1 }.merging(["APNS_URL": ""]) { $1 }).apns?.baseURL == APNsSettings.production)
        for bad in [
            ["APNS_TOPIC": ""], ["APNS_TEAM_ID": "team"], ["APNS_PRIVATE_KEY_FILE": "/nonexistent.p8"],
            ["APNS_PRIVATE_KEY_FILE": "/etc/hostname"], ["APNS_URL": "http://api.push.apple.com"],
            ["APNS_URL": "https://api.push.apple.com/3/device"], ["APNS_TOPIC": "shop"], ["APNS_TOPIC": "jp.example/shop"],
            ["APNS_CA_FILE": "/nonexistent.pem"],
        ] {
            #expect(throws: ConfigError.self, "\(bad)") { try AppConfig.fromEnvironment(db.merging(all) { $1 }.merging(bad) { $1 }) }
        }
    }

    @Test func keyValueConnectionStringsAreAccepted() throws {
        let config = try AppConfig.fromEnvironment(["DATABASE_URL": "host=localhost dbname=shop", "PORT": "9000", "LOG_LEVEL": "DEBUG"])
        #expect(config.port == 9000 && config.logLevel == .debug)
    }

    @Test func everyBadValueIsNamedInOneLine() {
        do {
            _ = try AppConfig.fromEnvironment(["DATABASE_URL": "nonsense://", "PORT": "80x", "ADMIN_TOKEN": "short", "LOG_LEVEL": "loud"])
            Issue.record("bad configuration accepted")
        } catch {
            let text = error.description
            #expect(!text.contains("\n"))
            for variable in ["DATABASE_URL:", "PORT:", "ADMIN_TOKEN:", "LOG_LEVEL:"] { #expect(text.contains(variable), "\(text)") }
            #expect(text.contains("got '80x'"))
        }
    }

    @Test func missingDatabaseURLIsAnError() {
        #expect(throws: ConfigError.self) { try AppConfig.fromEnvironment([:]) }
    }

    @Test func outsideAPIsAndTheirDeadlines() throws {
        let config = try AppConfig.fromEnvironment([
            "DATABASE_URL": "postgresql://u@localhost/db", "MEDIA_API_URL": "http://127.0.0.1:8430",
            "MEDIA_TIMEOUT_SECONDS": "5", "PAYMENT_TIMEOUT_SECONDS": "2",
        ])
        #expect(config.mediaURL == "http://127.0.0.1:8430" && config.mediaTimeout == .seconds(5) && config.paymentTimeout == .seconds(2))
        let defaults = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost/db"])
        #expect(defaults.mediaURL == nil && defaults.mediaTimeout == .seconds(30) && defaults.paymentTimeout == .seconds(10))
        do {
            _ = try AppConfig.fromEnvironment([
                "DATABASE_URL": "postgresql://u@localhost/db", "MEDIA_API_URL": "ftp://media",
                "MEDIA_TIMEOUT_SECONDS": "0", "PAYMENT_TIMEOUT_SECONDS": "soon",
            ])
            Issue.record("bad configuration accepted")
        } catch {
            for variable in ["MEDIA_API_URL:", "MEDIA_TIMEOUT_SECONDS:", "PAYMENT_TIMEOUT_SECONDS:"] {
                #expect(error.description.contains(variable), "\(error.description)")
            }
        }
    }

    /// Every setting naming a service or where files are published takes an absolute http or
    /// https URL with a host, read one way (the scheme in any case), and nothing that only starts
    /// like one.
    @Test func urlSettingsAreHTTPURLsWithAHost() throws {
        let base = ["DATABASE_URL": "postgresql://u@localhost/db"]
        for (variable, value) in [
            ("MEDIA_API_URL", "http://"), ("MEDIA_API_URL", "https:///photo"), ("MEDIA_PUBLIC_URL", "http://media.example/a b"),
            ("MEDIA_PUBLIC_URL", "httpsx://media.example"), ("MEDIA_API_URL", "https://media.example?x=1"),
            ("MEDIA_API_URL", "https://user:secret@media.example"), ("MEDIA_PUBLIC_URL", "https://media.example/#top"),
        ] {
            #expect(throws: ConfigError.self, "\(variable)=\(value)") {
                try AppConfig.fromEnvironment(base.merging([variable: value]) { $1 })
            }
        }
        #expect(throws: ConfigError.self) {
            try AppConfig.fromEnvironment(base.merging(["PAYMENT_API_URL": "http://", "PAYMENT_API_KEY": "sk_test_x"]) { $1 })
        }
        let accepted = try AppConfig.fromEnvironment(
            base.merging([
                "MEDIA_API_URL": "HTTPS://media.example:8443", "PAYMENT_API_URL": "http://127.0.0.1:12111/", "PAYMENT_API_KEY": "sk_test_x",
            ]) { $1 })
        #expect(accepted.mediaURL == "HTTPS://media.example:8443" && accepted.payment?.url == "http://127.0.0.1:12111")
    }

    @Test func deadlinesAndLimits() throws {
        let defaults = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost/db"])
        #expect(defaults.httpIdleTimeout == .seconds(60) && defaults.httpRequestTimeout == .seconds(120))
        #expect(defaults.httpMaxConnections == 1000 && defaults.uploadMaxConcurrent == 32 && defaults.uploadMaxPerCustomer == 5)
        #expect(defaults.uploadMaxPerAddress == 8)
        // A customer sends from one address: an address's share below a customer's would refuse
        // the five photos a customer may send at once.
        do {
            _ = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost/db", "UPLOAD_MAX_PER_ADDRESS": "2"])
            Issue.record("an address's share below a customer's accepted")
        } catch {
            #expect(error.description.contains("UPLOAD_MAX_PER_ADDRESS: must be at least UPLOAD_MAX_PER_CUSTOMER (5)"))
        }
        #expect(defaults.databaseStatementTimeoutMilliseconds == 5000 && defaults.databaseLockTimeoutMilliseconds == 2000)
        let set = try AppConfig.fromEnvironment([
            "DATABASE_URL": "postgresql://u@localhost/db", "HTTP_IDLE_TIMEOUT_SECONDS": "5", "HTTP_REQUEST_TIMEOUT_SECONDS": "7",
            "HTTP_MAX_CONNECTIONS": "50", "UPLOAD_MAX_CONCURRENT": "3", "UPLOAD_MAX_PER_CUSTOMER": "1",
            "DATABASE_STATEMENT_TIMEOUT_MS": "100",
            "DATABASE_LOCK_TIMEOUT_MS": "20",
        ])
        #expect(set.httpIdleTimeout == .seconds(5) && set.httpRequestTimeout == .seconds(7) && set.httpMaxConnections == 50)
        #expect(
            set.uploadMaxConcurrent == 3 && set.uploadMaxPerCustomer == 1 && set.databaseStatementTimeoutMilliseconds == 100
                && set.databaseLockTimeoutMilliseconds == 20)
        let names = [
            "HTTP_IDLE_TIMEOUT_SECONDS", "HTTP_REQUEST_TIMEOUT_SECONDS", "HTTP_MAX_CONNECTIONS", "UPLOAD_MAX_CONCURRENT",
            "UPLOAD_MAX_PER_CUSTOMER",
            "DATABASE_STATEMENT_TIMEOUT_MS", "DATABASE_LOCK_TIMEOUT_MS",
        ]
        var environment = ["DATABASE_URL": "postgresql://u@localhost/db"]
        for name in names { environment[name] = "0" }
        do {
            _ = try AppConfig.fromEnvironment(environment)
            Issue.record("zero deadlines and limits accepted")
        } catch {
            for name in names { #expect(error.description.contains("\(name): must be an integer from"), "\(error.description)") }
        }
    }

    @Test func itemCacheSizeAndWhetherItListens() throws {
        let url = "postgresql://u@localhost/db"
        let defaults = try AppConfig.fromEnvironment(["DATABASE_URL": url])
        #expect(defaults.itemCacheSize == 10_000 && defaults.listensForItemChanges)
        let off = try AppConfig.fromEnvironment(["DATABASE_URL": url, "ITEM_CACHE_SIZE": "0"])
        #expect(off.itemCacheSize == 0 && !off.listensForItemChanges)
        let pooled = try AppConfig.fromEnvironment(["DATABASE_URL": url, "DATABASE_POOLER": "transaction"])
        #expect(!pooled.listensForItemChanges, "LISTEN needs a session of its own")
        for bad in ["-1", "1000001", "many", "9223372036854775808"] {
            #expect {
                _ = try AppConfig.fromEnvironment(["DATABASE_URL": url, "ITEM_CACHE_SIZE": bad])
            } throws: { error in
                "\(error)".contains("ITEM_CACHE_SIZE: must be an integer from 0 to 1000000")
            }
        }
    }

    /// ServiceLifecycle logs each service with its description: none may carry a secret.
    @Test func descriptionsWithholdSecrets() throws {
        var config = try AppConfig.fromEnvironment([
            "DATABASE_URL": "postgresql://u:db-secret@localhost/db", "ADMIN_TOKEN": "admin-secret-0123456789",
            "PAYMENT_API_URL": "http://127.0.0.1:1", "PAYMENT_API_KEY": "sk_test_payment_secret",
        ])
        config.environment = ["SOME_SECRET": "env-secret"]
        let settings = PostgresConnectionSettings(conninfo: config.databaseURL)
        let resources = AppResources(config: config, pool: PostgresPool(.init(connection: settings)), logger: Logger(label: "test"))
        for text in ["\(config)", String(reflecting: config), "\(settings)", String(reflecting: settings), "\(resources)", "\([config])"] {
            for secret in ["db-secret", "admin-secret", "payment_secret", "env-secret"] {
                #expect(!text.contains(secret), "\(text) shows \(secret)")
            }
        }
    }

    @Test func aTransactionPoolerTakesTheTimeoutsFromTheRole() throws {
        let url = "postgresql://u@localhost:6432/db"
        #expect(try !AppConfig.fromEnvironment(["DATABASE_URL": url]).databaseBehindTransactionPooler)
        #expect(try !AppConfig.fromEnvironment(["DATABASE_URL": url, "DATABASE_POOLER": "none"]).databaseBehindTransactionPooler)
        #expect(try AppConfig.fromEnvironment(["DATABASE_URL": url, "DATABASE_POOLER": "transaction"]).databaseBehindTransactionPooler)
        for (name, value) in [
            ("DATABASE_POOLER", "session"), ("DATABASE_STATEMENT_TIMEOUT_MS", "100"), ("DATABASE_LOCK_TIMEOUT_MS", "100"),
        ] {
            var environment = ["DATABASE_URL": url, "DATABASE_POOLER": "transaction"]
            environment[name] = value
            #expect {
                _ = try AppConfig.fromEnvironment(environment)
            } throws: { error in
                "\(error)".contains("\(name): ")
            }
        }
    }

    @Test func theDevelopmentAdminTokenOnlyOnLoopback() throws {
        let token = AppConfig.developmentAdminToken
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            let config = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost/db", "HOST": host, "ADMIN_TOKEN": token])
            #expect(config.adminToken == token)
        }
        for host in ["0.0.0.0", "192.0.2.10", "::", "shop.example", "127.example.com", "127.0.0.1.nip.io", "127.0.0.256"] {
            #expect(throws: ConfigError.self, "\(host)") {
                try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost/db", "HOST": host, "ADMIN_TOKEN": token])
            }
        }
        let own = try AppConfig.fromEnvironment(
            ["DATABASE_URL": "postgresql://u@localhost/db", "HOST": "0.0.0.0", "ADMIN_TOKEN": "a-token-of-our-own-0123"])
        #expect(own.adminToken == "a-token-of-our-own-0123")
    }

    @Test func protectionsAndTheirLimits() throws {
        let config = try AppConfig.fromEnvironment([
            "DATABASE_URL": "postgresql://u@localhost/db", "PASSWORD_HASH_CONCURRENCY": "3", "TRUSTED_PROXY_HOPS": "1",
            "RATE_LIMIT_PASSWORD_PER_ACCOUNT": "5/60", "RATE_LIMIT_CHECKOUT_PER_CUSTOMER": "2/3600", "PURGE_INTERVAL_SECONDS": "30",
            "RATE_LIMIT_PAYMENT_CHECK_PER_CUSTOMER": "30/60",
        ])
        #expect(config.passwordHashConcurrency == 3 && config.trustedProxyHops == 1 && config.purgeInterval == .seconds(30))
        #expect(config.rateLimits.passwordPerAccount == RateLimit(count: 5, window: 60))
        #expect(config.rateLimits.checkoutPerCustomer == RateLimit(count: 2, window: 3600))
        #expect(config.rateLimits.paymentCheckPerCustomer == RateLimit(count: 30, window: 60))
        #expect(config.rateLimits.passwordPerAddress == RateLimits().passwordPerAddress, "unset keeps the default")
        let defaults = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost/db"])
        #expect(defaults.trustedProxyHops == 0, "X-Forwarded-For is ignored unless a proxy is trusted")
        do {
            _ = try AppConfig.fromEnvironment([
                "DATABASE_URL": "postgresql://u@localhost/db", "PASSWORD_HASH_CONCURRENCY": "0", "TRUSTED_PROXY_HOPS": "yes",
                "RATE_LIMIT_PASSWORD_PER_ADDRESS": "10", "RATE_LIMIT_PHOTO_PER_CUSTOMER": "0/60", "PURGE_INTERVAL_SECONDS": "-1",
            ])
            Issue.record("bad configuration accepted")
        } catch {
            for variable in [
                "PASSWORD_HASH_CONCURRENCY:", "TRUSTED_PROXY_HOPS:", "RATE_LIMIT_PASSWORD_PER_ADDRESS:", "RATE_LIMIT_PHOTO_PER_CUSTOMER:",
                "PURGE_INTERVAL_SECONDS:",
            ] {
                #expect(error.description.contains(variable), "\(error.description)")
            }
        }
    }
}
