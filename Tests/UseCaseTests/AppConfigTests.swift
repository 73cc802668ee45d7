import Scenes
import Testing

@Suite("Configuration from the environment")
struct AppConfigTests {
    @Test func defaultsApplyWhenOnlyTheDatabaseIsGiven() throws {
        let config = try AppConfig.fromEnvironment(["DATABASE_URL": "postgresql://u@localhost:5432/db"])
        #expect(config.host == "127.0.0.1" && config.port == 8080 && config.adminToken == nil)
        #expect(config.databasePoolSize == 10)
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
}
