/// A bounded pool of connections. `withConnection` lends one connection to a unit of work; when
/// all are busy the caller waits, first come first served, up to `acquireTimeout`, then fails with
/// `PostgresError.poolTimeout`. Connections broken by a server restart are re-opened when next
/// lent out, so the pool recovers by itself once the server is back.
public actor PostgresPool: PostgresExecutor {
    public struct Configuration: Sendable {
        public var connection: PostgresConnectionSettings
        public var maxConnections: Int
        public var acquireTimeout: Duration

        public init(connection: PostgresConnectionSettings, maxConnections: Int = 10, acquireTimeout: Duration = .seconds(5)) {
            self.connection = connection
            self.maxConnections = max(1, maxConnections)
            self.acquireTimeout = acquireTimeout
        }
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<PostgresConnection, any Error>
        let timeout: Task<Void, Never>
    }

    public nonisolated let configuration: Configuration
    private var idle: [PostgresConnection] = []
    private var openCount = 0
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0
    private var isShutdown = false

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Connections open now, busy ones included, and how many are idle; for metrics and tests.
    public var statistics: (open: Int, idle: Int, waiting: Int) { (openCount, idle.count, waiters.count) }

    /// Lends a connection to `body` and takes it back afterwards, also when `body` throws.
    /// - Throws: `PostgresError.poolTimeout`, `.connection` when the server cannot be reached,
    ///   `.poolShutdown`, or whatever `body` throws.
    public nonisolated func withConnection<T: Sendable>(
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await acquire()
        do {
            try await connection.prepareForUse()
            let value = try await body(connection)
            await release(connection)
            return value
        } catch {
            await release(connection)
            throw error
        }
    }

    public nonisolated func query(_ sql: String, binds: [any PostgresEncodable]) async throws -> PostgresResult {
        try await withConnection { connection in try await connection.query(sql, binds: binds) }
    }

    /// Fails every waiter, closes idle connections now and busy ones when they come back.
    public func shutdown() async {
        isShutdown = true
        let failed = waiters
        waiters.removeAll()
        for waiter in failed {
            waiter.timeout.cancel()
            waiter.continuation.resume(throwing: PostgresError.poolShutdown)
        }
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        for connection in closing { await connection.close() }
    }

    private func acquire() async throws -> PostgresConnection {
        if isShutdown { throw PostgresError.poolShutdown }
        if let connection = idle.popLast() { return connection }
        if openCount < configuration.maxConnections {
            openCount += 1
            do {
                return try await PostgresConnection.connect(configuration.connection)
            } catch {
                openCount -= 1
                throw error
            }
        }
        return try await waitForRelease()
    }

    private func waitForRelease() async throws -> PostgresConnection {
        nextWaiterID += 1
        let id = nextWaiterID
        let timeout = configuration.acquireTimeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    await self?.failWaiter(id, with: .poolTimeout(waitedMilliseconds: Int(timeout.milliseconds)))
                }
                waiters.append(Waiter(id: id, continuation: continuation, timeout: timer))
            }
        } onCancel: {
            Task { await self.failWaiter(id, with: .connection(message: "cancelled while waiting for a connection")) }
        }
    }

    private func failWaiter(_ id: UInt64, with error: PostgresError) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.timeout.cancel()
        waiter.continuation.resume(throwing: error)
    }

    private func release(_ connection: PostgresConnection) async {
        if isShutdown {
            openCount -= 1
            await connection.close()
            return
        }
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            waiter.timeout.cancel()
            waiter.continuation.resume(returning: connection)
        } else {
            idle.append(connection)
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
