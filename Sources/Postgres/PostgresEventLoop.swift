import CLinux
import Foundation
import Synchronization

/// Threads that run Swift tasks and, whenever they have none to run, wait in `epoll` for the
/// PostgreSQL sockets that tasks are parked on: a small event loop of our own.
///
/// A query sends its statement and parks here (`wait(for:_:)`) until the server answers. Tasks that
/// prefer this executor (`withTaskExecutorPreference(PostgresEventLoop.shared)`, as `serve` runs the
/// whole server) are then resumed by the very thread that saw the answer arrive, so a request goes
/// from the database back to the HTTP code without waking another thread: on Swift's global pool it
/// took a wake-up of the epoll thread and another of a pool thread (measured: see
/// `Benchmarks/README.md`). Tasks that do not prefer it (tests, the command-line tools) still park
/// here and are resumed on the global pool.
///
/// Waking a sleeping thread is what costs, so it is done sparingly: a job from outside wakes one
/// only when every thread sleeps, and a thread that takes a job while others wait in the queue
/// wakes one more. A job queued while the awake threads are busy therefore waits for one of them to
/// finish its current job: jobs are short (a task's run between two awaits), and whatever blocks a
/// thread for long (password hashing, opening a connection) runs on a dispatch queue instead.
///
/// Each wait arms its socket once (`EPOLLONESHOT`), so an event belongs to at most one waiter (a
/// cancelled wait leaves its socket armed with no waiter, and that event is dropped). A socket libpq has closed leaves the epoll set by itself; its number, reused by another
/// connection, is simply added again.
public final class PostgresEventLoop: TaskExecutor, @unchecked Sendable {
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

    /// The system name of its threads, followed by their number.
    public static let threadNamePrefix = "sf-postgres-"

    /// One thread per processor, for the whole process.
    public static let shared = PostgresEventLoop(threads: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// A busy thread looks at the sockets after this many jobs even if more are queued, so parked
    /// queries are not starved under sustained load. Looking more often costs a system call per job
    /// for nothing measurable; idle threads look anyway.
    static let jobsBetweenPolls = 16

    private struct State {
        var jobs = JobQueue()
        /// Threads blocked in `epoll_wait` with nothing to run.
        var sleepers = 0
        /// A wake-up is written to the eventfd and no thread has seen it yet.
        var isWaking = false
    }

    private let epoll: Int32
    /// An eventfd in the epoll set: writing to it wakes a sleeping thread for a new job.
    private let wakeup: Int32
    private let threadCount: Int
    private let state = Mutex(State())
    private let waiters = Mutex<[Int32: CheckedContinuation<Void, Never>]>([:])

    private init(threads: Int) {
        threadCount = threads
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1 failed: errno \(errno)")
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(wakeup >= 0, "eventfd failed: errno \(errno)")
        // Edge-triggered: each write is seen by one thread, not by every thread until it is read.
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLET.rawValue
        event.data.fd = wakeup
        precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event) == 0, "epoll_ctl failed: errno \(errno)")
        for index in 0..<threads {
            Thread { [self] in
                // Named for top, perf and gdb (at most 15 bytes).
                _ = pthread_setname_np(pthread_self(), "\(Self.threadNamePrefix)\(index)")
                self.run()
            }.start()
        }
    }

    /// Queues a job; wakes a thread only when every thread sleeps (a busy one finds the job next).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = state.withLock { state in
            state.jobs.push(job)
            return Self.claimWakeUp(&state, if: state.sleepers == threadCount)
        }
        if wake { _ = eventfd_write(wakeup, 1) }
    }

    /// Returns once `socket` is ready for `interest`, or has failed (libpq then reports the error on
    /// its next call). A socket that cannot be watched returns at once for the same reason.
    func wait(for socket: Int32, _ interest: Interest) async {
        await withCheckedContinuation { park($0, on: socket, interest) }
    }

    /// As `wait(for:_:)` for reading, but also returns when the task is cancelled: for a link that
    /// waits for as long as the server sends nothing (`PostgresConnection.waitForNotifications`).
    func waitUntilReadableOrCancelled(_ socket: Int32) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { park($0, on: socket, .readable, unlessCancelled: true) }
        } onCancel: {
            waiters.withLock { $0.removeValue(forKey: socket) }?.resume()
        }
    }

    /// Registers the waiter, then arms its socket, so the event cannot come before its waiter.
    /// Resumes it at once when the socket cannot be armed, or (`unlessCancelled`) when the task is
    /// already cancelled: its cancellation handler ran before there was a waiter to resume.
    private func park(
        _ continuation: CheckedContinuation<Void, Never>, on socket: Int32, _ interest: Interest, unlessCancelled: Bool = false
    ) {
        waiters.withLock { $0[socket] = continuation }
        guard (unlessCancelled && Task.isCancelled) || !arm(socket, interest) else { return }
        waiters.withLock { $0.removeValue(forKey: socket) }?.resume()
    }

    private func arm(_ socket: Int32, _ interest: Interest) -> Bool {
        var event = epoll_event()
        event.events = interest.events | EPOLLONESHOT.rawValue
        event.data.fd = socket
        if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) == 0 { return true }
        return errno == ENOENT && epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0
    }

    /// Whether the caller should write a wake-up: `condition` holds and none is on its way.
    private static func claimWakeUp(_ state: inout State, if condition: Bool) -> Bool {
        guard condition, !state.isWaking else { return false }
        state.isWaking = true
        return true
    }

    private func run() -> Never {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var jobsSincePoll = 0
        let executor = asUnownedTaskExecutor()
        while true {
            let (job, wakeAnother) = state.withLock { state -> (UnownedJob?, Bool) in
                guard let job = state.jobs.pop() else {
                    state.sleepers += 1
                    return (nil, false)
                }
                // More work than this thread: share it with a sleeping one.
                return (job, Self.claimWakeUp(&state, if: !state.jobs.isEmpty && state.sleepers > 0))
            }
            if wakeAnother { _ = eventfd_write(wakeup, 1) }
            guard let job else {
                poll(&events, timeout: -1, asleep: true)
                continue
            }
            job.runSynchronously(on: executor)
            jobsSincePoll += 1
            if jobsSincePoll == Self.jobsBetweenPolls {
                jobsSincePoll = 0
                poll(&events, timeout: 0, asleep: false)
            }
        }
    }

    /// Waits up to `timeout` ms (-1: for ever) for sockets and wake-ups, then resumes the tasks
    /// whose sockets are ready; those that prefer this executor queue here, to this awake thread.
    private func poll(_ events: inout [epoll_event], timeout: Int32, asleep: Bool) {
        let result = epoll_wait(epoll, &events, Int32(events.count), timeout)
        precondition(result >= 0 || errno == EINTR, "epoll_wait failed: errno \(errno)")
        let count = max(0, Int(result))
        let wokenUp = events[0..<count].contains { $0.data.fd == wakeup }
        if wokenUp {
            var value: eventfd_t = 0
            _ = eventfd_read(wakeup, &value)
        }
        if asleep || wokenUp {
            state.withLock { state in
                if asleep { state.sleepers -= 1 }
                if wokenUp { state.isWaking = false }
            }
        }
        guard count > 0 else { return }
        let ready = waiters.withLock { waiters in
            events[0..<count].compactMap { waiters.removeValue(forKey: $0.data.fd) }
        }
        for continuation in ready { continuation.resume() }
    }
}

/// First in, first out, in amortized constant time: jobs are pushed onto one array and popped from
/// another that holds the first one's jobs in reverse.
private struct JobQueue {
    private var pushed: [UnownedJob] = []
    private var popping: [UnownedJob] = []

    var isEmpty: Bool { pushed.isEmpty && popping.isEmpty }

    mutating func push(_ job: UnownedJob) {
        pushed.append(job)
    }

    mutating func pop() -> UnownedJob? {
        if popping.isEmpty {
            popping = pushed.reversed()
            pushed.removeAll(keepingCapacity: true)
        }
        return popping.popLast()
    }
}
