/// The isolation levels `withTransaction` can ask for.
public enum IsolationLevel: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case serializable = "SERIALIZABLE"
}

extension PostgresPool {
    /// Runs `body` inside `BEGIN ISOLATION LEVEL ... / COMMIT` on one connection. On a
    /// serialization failure or deadlock (SQLSTATE 40001, 40P01) the whole transaction is rolled
    /// back and run again, at most `maxAttempts` times in all, with a short randomised pause;
    /// `body` must therefore do nothing it cannot repeat (no HTTP calls).
    /// - Throws: the last retryable error once attempts run out, any other error at once (after
    ///   ROLLBACK).
    public func withTransaction<T: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        maxAttempts: Int = 5,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await withConnection { connection in
                    try await connection.executeScript("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
                    do {
                        let value = try await body(connection)
                        try await connection.executeScript("COMMIT")
                        return value
                    } catch {
                        try? await connection.executeScript("ROLLBACK")
                        throw error
                    }
                }
            } catch let error as PostgresError where error.isRetryableInTransaction && attempt < maxAttempts {
                attempt += 1
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }
}
