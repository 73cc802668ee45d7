import CLibPQ

/// A connection of its own that `LISTEN`s on one channel for as long as its task runs, and tells
/// `onEvent` what it hears. Notifications sent while it was not listening are lost for good, so
/// it says when it starts listening and when it stops (`.listening`, `.lost`): whoever relies on
/// the notifications trusts them only between the two. A broken link is opened again after
/// `retryDelay`, doubled after each failure in a row up to `maxRetryDelay`.
///
/// A link whose other end vanished without a word is noticed only by TCP keepalives (a minute,
/// `PostgresConnectionSettings`): whoever needs to know sooner sends itself notifications and
/// watches them arrive (`ItemCacheListener` does).
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

    public init(
        settings: PostgresConnectionSettings, channel: String, retryDelay: Duration = .seconds(1), maxRetryDelay: Duration = .seconds(30)
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
                try await connection.receiveNotifications { onEvent(.notification($0)) }
            } catch {
                failure = "\(error)"
            }
            onEvent(.lost(Task.isCancelled ? nil : failure))
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, maxRetryDelay)
        }
    }
}

extension PostgresConnection {
    /// Hands each notification's payload to `deliver` as it arrives, until the link breaks
    /// (throws `PostgresError.connection`) or the task is cancelled (returns).
    func receiveNotifications(_ deliver: (String) -> Void) async throws(PostgresError) {
        let handle = try liveHandle()
        while true {
            // Also what arrived with the last command's answer, which libpq has already read.
            while let notification = PQnotifies(handle) {
                deliver(String(cString: notification.pointee.extra))
                PQfreemem(notification)
            }
            if Task.isCancelled { return }
            await PostgresEventLoop.shared.waitUntilReadableOrCancelled(PQsocket(handle))
            guard PQconsumeInput(handle) == 1 else { throw .connection(message: Self.errorMessage(handle)) }
        }
    }
}
