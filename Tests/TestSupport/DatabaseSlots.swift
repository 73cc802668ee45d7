import Synchronization

/// At most `maximum` test databases open at once. Every test starts at once, each database
/// with a pool of its own (and an app's beside it in the HTTP tests), and on a loaded machine
/// they opened more connections than the cluster's `max_connections`: tests failed with "too
/// many clients already". The rest wait their turn, first come first served.
final class DatabaseSlots: Sendable {
    private let maximum: Int
    private let state = Mutex<(held: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    init(maximum: Int) {
        self.maximum = maximum
    }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.held < maximum else {
                    state.waiting.append(continuation)
                    return false
                }
                state.held += 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the first waiter, if any.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.held -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
