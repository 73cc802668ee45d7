import HTTP
import HTTPTestSupport
import Hummingbird
import HummingbirdTesting
import LiveScenes
import Logging
import Postgres
import Scenes
import TestSupport
import Testing

@Suite("Health without a database")
struct HealthHTTPTests {
    @Test func unreachableDatabaseIs503AndReadsFailFast() async throws {
        let url = "postgresql://storefront@127.0.0.1:\(freePort())/none"
        let pool = PostgresPool(.init(connection: .init(conninfo: url)))
        let resources = AppResources(config: AppConfig(databaseURL: url), pool: pool, logger: Logger(label: "test"))
        try await buildApplication(resources).test(.router) { client in
            let health = try await client.send(.get, "/health")
            try health.expectProblem(503)
            try await client.send(.get, "/v1/items").expectProblem(503)
        }
    }
}
