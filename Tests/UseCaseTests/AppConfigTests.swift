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
}
