import Synchronization

/// At most `maximum` holders at once in this process. `tryAcquire` never waits: work past the
/// limit is refused at once (429 with Retry-After) instead of queueing behind the rest, which is
/// what keeps a burst of slow, costly requests from piling up. Used for password hashes and the
/// catalog's facet counts (uploads have `UploadPlaces`).
public final class ConcurrencyLimit: Sendable {
    public let maximum: Int
    private let held = Mutex(0)

    public init(maximum: Int) {
        self.maximum = maximum
    }

    /// Takes a place if one is free; the caller calls `release` when done with it.
    public func tryAcquire() -> Bool {
        held.withLock { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
    }

    public func release() {
        held.withLock { $0 -= 1 }
    }
}
