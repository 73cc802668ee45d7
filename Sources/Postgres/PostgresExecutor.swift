/// Something that runs parameterized statements: the pool (a connection per call) or one
/// connection inside `withConnection`/`withTransaction`. Gateways depend on this, not on libpq.
public protocol PostgresExecutor: Sendable {
    /// Runs one statement with `$1...$n` bound to `binds`, through the connection's
    /// prepared-statement cache.
    /// - Throws: `PostgresError`, with SQLSTATEs sorted into typed cases.
    func query(_ sql: String, binds: [any PostgresEncodable]) async throws -> PostgresResult
}

extension PostgresExecutor {
    /// Runs one statement with `$1...$n` bound to the arguments.
    /// - Throws: `PostgresError`.
    @discardableResult
    public func query(_ sql: String, _ binds: any PostgresEncodable...) async throws -> PostgresResult {
        try await query(sql, binds: binds)
    }
}
