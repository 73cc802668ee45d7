import Synchronization

/// A bounded pool of connections. `withConnection` lends one connection to a unit of work; when
/// all are busy the caller waits, first come first served, up to `acquireTimeout`, then fails with
/// `PostgresError.poolTimeout`. Connections broken by a server restart are re-opened when next
/// lent out, so the pool recovers by itself once the server is back.
///
/// The state sits behind a mutex rather than in an actor: lending and taking back are a few
/// instructions, and an actor would add two executor hops to every query (measured: see
/// `Benchmarks/README.md`).
public final class PostgresPool: PostgresExecutor, Sendable {
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
        let continuation: CheckedContinuation<PostgresConnection?, any Error>
        let deadline: ContinuousClock.Instant
    }

    private struct State {
        var idle: [PostgresConnection] = []
        var openCount = 0
        /// First come, first served; as every waiter waits equally long, also in deadline order.
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isShutdown = false
        /// Whether the task that fails waiters past their deadline is running (see `expireWaiters`).
        var isExpiring = false
    }

    /// What an acquire attempt may do: use an idle connection, open a new one, or wait.
    private enum Grant {
        case use(PostgresConnection)
        case open
        case wait
    }

    public let configuration: Configuration
    private let state = Mutex(State())

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Connections open now (busy ones included), idle, and callers waiting; for metrics and tests.
    public var statistics: (open: Int, idle: Int, waiting: Int) {
        state.withLock { ($0.openCount, $0.idle.count, $0.waiters.count) }
    }

    /// Lends a connection to `body` and takes it back afterwards, also when `body` throws.
    /// - Throws: `PostgresError.poolTimeout`, `.connection` when the server cannot be reached,
    ///   `.poolShutdown`, or whatever `body` throws.
    public func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await acquire()
        connection.markLent()
        do {
            let value = try await body(connection)
            release(connection)
            return value
        } catch {
            release(connection)
            throw error
        }
    }

    public func query(_ sql: String, binds: [any PostgresEncodable]) async throws -> PostgresResult {
        try await withConnection { connection in try await connection.query(sql, binds: binds) }
    }

    /// Fails every waiter, closes idle connections now and busy ones when they come back.
    public func shutdown() async {
        let (waiters, idle) = state.withLock { state in
            state.isShutdown = true
            defer {
                state.waiters.removeAll()
                state.openCount -= state.idle.count
                state.idle.removeAll()
            }
            return (state.waiters, state.idle)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: PostgresError.poolShutdown) }
        for connection in idle { connection.close() }
    }

    private func acquire() async throws -> PostgresConnection {
        switch try state.withLock({ try Self.grant(&$0, max: configuration.maxConnections) }) {
        case .use(let connection): return connection
        case .open: return try await open()
        case .wait:
            // Ask again under the lock that registers the waiter, so a release in between is
            // not missed.
            if let connection = try await waitForRelease() { return connection }
            return try await open()
        }
    }

    private static func grant(_ state: inout State, max: Int) throws(PostgresError) -> Grant {
        if state.isShutdown { throw .poolShutdown }
        if let connection = state.idle.popLast() { return .use(connection) }
        if state.openCount < max {
            state.openCount += 1
            return .open
        }
        return .wait
    }

    /// Opens a connection in a slot already counted. A failed open hands its slot to the first
    /// waiter, to open one of its own, as a release hands over a connection: otherwise a waiter
    /// queued while the server was down would sit out its whole timeout beside a free slot.
    private func open() async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration.connection)
        } catch {
            let waiter = state.withLock { state -> Waiter? in
                guard !state.waiters.isEmpty, !state.isShutdown else {
                    state.openCount -= 1
                    return nil
                }
                return state.waiters.removeFirst()
            }
            waiter?.continuation.resume(returning: nil)
            throw error
        }
    }

    /// Waits for a released connection; `nil` means a slot opened up and the caller opens one.
    private func waitForRelease() async throws -> PostgresConnection? {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timeout = configuration.acquireTimeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection?, any Error>) in
                var startExpiring = false
                let grant: Result<Grant, PostgresError> = state.withLock { state in
                    do throws(PostgresError) {
                        let grant = try Self.grant(&state, max: configuration.maxConnections)
                        if case .wait = grant {
                            state.waiters.append(Waiter(id: id, continuation: continuation, deadline: .now + timeout))
                            startExpiring = !state.isExpiring
                            state.isExpiring = true
                        }
                        return .success(grant)
                    } catch {
                        return .failure(error)
                    }
                }
                if startExpiring { Task { await expireWaiters() } }
                switch grant {
                case .success(.use(let connection)): continuation.resume(returning: connection)
                case .success(.open): continuation.resume(returning: nil)
                case .success(.wait): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            failWaiter(id, with: .connection(message: "cancelled while waiting for a connection"))
        }
    }

    private func failWaiter(_ id: UInt64, with error: PostgresError) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Fails waiters whose deadline has passed, sleeping until the oldest one's deadline, for as
    /// long as anyone waits. One timer for all waiters: a task and a timer per wait cost two thread
    /// wake-ups each, on every request that waits (measured: see `Benchmarks/README.md`).
    private func expireWaiters() async {
        let failure = PostgresError.poolTimeout(waitedMilliseconds: Int(configuration.acquireTimeout.milliseconds))
        while true {
            let now = ContinuousClock.now
            let (expired, next) = state.withLock { state -> ([Waiter], ContinuousClock.Instant?) in
                let count = state.waiters.prefix { $0.deadline <= now }.count
                let expired = Array(state.waiters.prefix(count))
                state.waiters.removeFirst(count)
                state.isExpiring = !state.waiters.isEmpty
                return (expired, state.waiters.first?.deadline)
            }
            for waiter in expired { waiter.continuation.resume(throwing: failure) }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }

    private func release(_ connection: PostgresConnection) {
        enum Next { case close, handOver(Waiter), keep }
        let next = state.withLock { state -> Next in
            if state.isShutdown {
                state.openCount -= 1
                return .close
            }
            if !state.waiters.isEmpty { return .handOver(state.waiters.removeFirst()) }
            state.idle.append(connection)
            return .keep
        }
        switch next {
        case .close: connection.close()
        case .handOver(let waiter): waiter.continuation.resume(returning: connection)
        case .keep: break
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
