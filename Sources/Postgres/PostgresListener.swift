import CLibPQ

/// A connection of its own that `LISTEN`s on one channel for as long as its task runs, and tells
/// `onEvent` what it hears. Notifications sent while it was not listening are lost for good, so
/// it says when it starts listening and when it stops (`.listening`, `.lost`): whoever relies on
/// the notifications trusts them only between the two. A broken link is opened again after
/// `retryDelay`, doubled after each failure in a row up to `maxRetryDelay`.
///
/// A link whose other end vanished without a word is noticed only by TCP keepalives (a minute,
/// `PostgresConnectionSettings`). Whoever needs to know sooner, or to know how far behind the
/// notifications run, gives a `heartbeat`: a statement the listener runs on its own connection
/// every `heartbeatInterval` (a `pg_notify` of its own, whose arrival says the link works and how
/// late it delivers).
public struct PostgresListener: Sendable {
    public enum Event: Sendable, Equatable {
        /// `LISTEN` took effect: every notification from now on arrives.
        case listening
        /// A notification's payload.
        case notification(String)
        /// The link broke, or could not be opened (the error, as libpq words it), or the task was
        /// cancelled (`nil`): notifications may be missed until the next `.listening`.
        case lost(String?)
    }

    public let settings: PostgresConnectionSettings
    /// A plain lowercase identifier (letters, digits, `_`), as `LISTEN` takes it unquoted.
    public let channel: String
    public let retryDelay: Duration
    public let maxRetryDelay: Duration
    /// What the listener runs on its connection every `heartbeatInterval`: a statement and its
    /// values, made anew each time.
    public let heartbeat: (@Sendable () -> (sql: String, binds: [any PostgresEncodable]))?
    public let heartbeatInterval: Duration

    public init(
        settings: PostgresConnectionSettings, channel: String, retryDelay: Duration = .seconds(1), maxRetryDelay: Duration = .seconds(30),
        heartbeatInterval: Duration = .seconds(1), heartbeat: (@Sendable () -> (sql: String, binds: [any PostgresEncodable]))? = nil
    ) {
        let isPlain =
            channel.utf8.first.map { !(0x30...0x39).contains($0) } == true
            && channel.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
            }
        precondition(isPlain, "a channel is a plain lowercase identifier")
        self.settings = settings
        self.channel = channel
        self.retryDelay = retryDelay
        self.maxRetryDelay = max(retryDelay, maxRetryDelay)
        self.heartbeatInterval = heartbeatInterval
        self.heartbeat = heartbeat
    }

    /// Listens until the task is cancelled, then returns after a last `.lost`.
    public func run(onEvent: @Sendable (Event) -> Void) async {
        var delay = retryDelay
        while !Task.isCancelled {
            var failure: String?
            do {
                let connection = try await PostgresConnection.connect(settings)
                defer { connection.close() }
                try await connection.executeScript("LISTEN \(channel)")
                onEvent(.listening)
                delay = retryDelay
                try await receive(on: connection) { onEvent(.notification($0)) }
            } catch {
                failure = "\(error)"
            }
            onEvent(.lost(Task.isCancelled ? nil : failure))
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, maxRetryDelay)
        }
    }

    /// Hands each notification's payload to `deliver` as it arrives, beating every interval
    /// however many arrive, until the link breaks (throws) or the task is cancelled (returns).
    private func receive(on connection: PostgresConnection, _ deliver: (String) -> Void) async throws {
        var nextBeat = ContinuousClock.now
        while true {
            try connection.takeNotifications(deliver)
            if Task.isCancelled { return }
            guard let heartbeat else {
                _ = try await connection.waitForNotifications(for: nil)
                continue
            }
            let now = ContinuousClock.now
            if now >= nextBeat {
                nextBeat = now + heartbeatInterval
                let (sql, binds) = heartbeat()
                _ = try await connection.query(sql, binds: binds)
            } else {
                _ = try await connection.waitForNotifications(for: nextBeat - now)
            }
        }
    }
}

extension PostgresConnection {
    /// Hands `deliver` each notification libpq has read (also those that came with a command's
    /// answer) and reads what has arrived since.
    /// - Throws: `PostgresError.connection` when the link is broken.
    func takeNotifications(_ deliver: (String) -> Void) throws(PostgresError) {
        let handle = try liveHandle()
        guard PQconsumeInput(handle) == 1 else { throw .connection(message: Self.errorMessage(handle)) }
        while let notification = PQnotifies(handle) {
            deliver(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
    }

    /// Waits until the server sends something, the task is cancelled, or `timeout` passes;
    /// whether something arrived.
    func waitForNotifications(for timeout: Duration?) async throws(PostgresError) -> Bool {
        let socket = PQsocket(try liveHandle())
        guard let timeout else {
            await PostgresEventLoop.shared.waitUntilReadableOrCancelled(socket)
            return true
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await PostgresEventLoop.shared.waitUntilReadableOrCancelled(socket)
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
