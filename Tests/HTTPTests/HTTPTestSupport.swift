import Foundation
import Gateway
import HTTP
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Postgres
import Scenes
import TestSupport
import Testing

let adminToken = "test-admin-token-0123456789"

/// Runs `body` against the whole application, in-process, on a fresh database, on the executor
/// `serve` runs it on (`PostgresEventLoop`). `configure` changes the settings (limits) first;
/// `testing` `.live` runs a real server on a loopback port instead of calling the router.
func withApp<T: Sendable>(
    adminToken: String? = adminToken, mediaURL: String? = nil, testing: TestingSetup = .router,
    configure: @Sendable (inout AppConfig) -> Void = { _ in },
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
        let resources = AppResources(config: config, pool: db.pool, logger: Logger(label: "test"))
        return try await withTaskExecutorPreference(PostgresEventLoop.shared) {
            try await buildApplication(resources).test(testing) { client in try await body(client, db) }
        }
    }
}

/// A customer with a live session, made directly in the database (sign-up's slow password
/// hash is tested elsewhere and would only slow the concurrency tests down).
func signedInCustomer(_ db: TestDatabase) async throws -> (id: UUID, token: String) {
    let id = UUID()
    let tokens = RandomSessionTokens()
    let token = tokens.newToken()
    try await db.pool.query(
        "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'x')", id, "\(id)@example.com")
    try await db.pool.query(
        "INSERT INTO sessions (token_hash, customer_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", tokens.hash(token), id)
    return (id, token)
}

extension TestClientProtocol {
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String? = nil,
        contentType: String = "application/json", headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if json != nil { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    var json: [String: Any] {
        get throws {
            let data = Data(buffer: body)
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any], "body: \(String(buffer: body))")
        }
    }

    /// Checks the answer is a problem document with this status; returns it.
    @discardableResult
    func expectProblem(_ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(Int(self.status.code) == status, "body: \(String(buffer: body))", sourceLocation: sourceLocation)
        #expect(headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        let problem = try json
        #expect(problem["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect(problem["type"] is String && problem["title"] is String && problem["detail"] is String, sourceLocation: sourceLocation)
        return problem
    }

    var fieldNames: [String] {
        ((try? json)?["errors"] as? [[String: String]] ?? []).compactMap { $0["field"] }
    }
}

let validItemJSON = """
    {"sku":"MUG-1","name":"Mug","description":"Stoneware","category":"kitchen","price":{"amount":1200,"currency":"JPY"},"stock":3}
    """
