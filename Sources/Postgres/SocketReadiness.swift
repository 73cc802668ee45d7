import CEpoll
import Foundation
import Synchronization

/// Wakes a waiting task when its connection's socket can be read or written. One thread, shared by
/// every connection of the process, blocks in `epoll_wait`; a task that sent a statement parks
/// here instead of blocking a thread in libpq, and a single wake-up of this thread can resume the
/// waiters of many sockets at once under load.
///
/// Each wait arms its socket once (`EPOLLONESHOT`), so an event always belongs to exactly one
/// waiter. A socket libpq has closed leaves the epoll set by itself; its number, reused by another
/// connection, is simply added again.
final class SocketReadiness: Sendable {
    enum Interest {
        case readable
        case readableOrWritable

        fileprivate var events: UInt32 {
            switch self {
            case .readable: EPOLLIN.rawValue
            case .readableOrWritable: EPOLLIN.rawValue | EPOLLOUT.rawValue
            }
        }
    }

    static let shared = SocketReadiness()

    private let epoll: Int32
    private let waiters = Mutex<[Int32: CheckedContinuation<Void, Never>]>([:])

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1 failed: errno \(errno)")
        let thread = Thread { [self] in self.run() }
        thread.name = "storefront.postgres.readiness"
        thread.start()
    }

    /// Returns once `socket` is ready for `interest`, or has failed (libpq then reports the error on
    /// its next call). A socket that cannot be watched returns at once for the same reason.
    func wait(for socket: Int32, _ interest: Interest) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Registered before arming, so the event cannot come before its waiter.
            waiters.withLock { $0[socket] = continuation }
            guard !arm(socket, interest) else { return }
            waiters.withLock { $0.removeValue(forKey: socket) }?.resume()
        }
    }

    private func arm(_ socket: Int32, _ interest: Interest) -> Bool {
        var event = epoll_event()
        event.events = interest.events | EPOLLONESHOT.rawValue
        event.data.fd = socket
        if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) == 0 { return true }
        return errno == ENOENT && epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0
    }

    private func run() -> Never {
        let capacity = 64
        var events = [epoll_event](repeating: epoll_event(), count: capacity)
        while true {
            let count = epoll_wait(epoll, &events, Int32(capacity), -1)
            guard count > 0 else {
                precondition(count == 0 || errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            let ready = waiters.withLock { waiters in
                events[0..<Int(count)].compactMap { waiters.removeValue(forKey: $0.data.fd) }
            }
            for continuation in ready { continuation.resume() }
        }
    }
}
