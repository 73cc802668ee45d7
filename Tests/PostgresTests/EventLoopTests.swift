import CLinux
import Foundation
import Postgres
import Synchronization
import TestSupport
import Testing

/// `PostgresEventLoop` as a task executor: tasks that prefer it run on its threads, get their
/// queries' answers there, and no job is lost however jobs arrive while its threads sleep.
///
/// The time limit catches a hang. It counts the wait for the test's database too, which every test
/// of the run shares (a copy at a time through a few connections): one minute was too short once
/// the whole run neared it.
@Suite("PostgreSQL event loop", .timeLimit(.minutes(3)))
struct EventLoopTests {
    @Test func tasksPreferringTheLoopRunOnItsThreadsAndGetTheirAnswers() async throws {
        try await TestDatabase.with(migrated: false, poolSize: 3) { db in
            try await withTaskExecutorPreference(PostgresEventLoop.shared) {
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for task in 0..<32 {
                        group.addTask {
                            for round in 0..<20 {
                                guard isLoopThread() else { return false }
                                let value = task * 1000 + round
                                let echoed: Int = try await db.pool.query("SELECT $1::int AS v", value).rows[0].decode("v")
                                guard echoed == value, isLoopThread() else { return false }
                            }
                            return true
                        }
                    }
                    for try await ranOnTheLoop in group { #expect(ranOnTheLoop) }
                }
            }
        }
    }

    @Test func jobsArrivingWhileTheLoopSleepsAreAllRun() async throws {
        // Short hops onto the loop from the global pool, in bursts and one by one with pauses, so
        // jobs arrive while every loop thread sleeps, while one is waking, and while they are busy.
        // A lost wake-up leaves a task queued for ever and the time limit fails the test.
        let done = HopCounter()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for hop in 0..<200 {
                        await withTaskExecutorPreference(PostgresEventLoop.shared) {
                            if isLoopThread() { done.value.add(1, ordering: .relaxed) }
                        }
                        if (worker + hop) % 50 == 0 { try? await Task.sleep(for: .milliseconds(2)) }
                    }
                }
            }
        }
        #expect(done.value.load(ordering: .relaxed) == 16 * 200)
    }
}

/// Whether the calling code runs on one of `PostgresEventLoop`'s threads (named by it).
private func isLoopThread() -> Bool {
    threadName().hasPrefix(PostgresEventLoop.threadNamePrefix)
}

private func threadName() -> String {
    var name = [CChar](repeating: 0, count: 16)
    _ = pthread_getname_np(pthread_self(), &name, name.count)
    return String(cString: name)
}

private final class HopCounter: Sendable {
    let value = Atomic(0)
}
