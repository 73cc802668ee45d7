import Domain
import Foundation
import Synchronization

/// Items as this instance last read them, for `GET /v1/items/{id}` (the busiest read of a shop,
/// answered without a round trip to PostgreSQL) and the items of the catalog's pages.
///
/// It is trusted only while it hears every change. Migrations/0027 and 0028 have PostgreSQL send a
/// notification naming the items each committed statement changed, whichever instance (or
/// person) made it; `ItemCacheListener` listens and calls `hear`. Until it listens, and from the
/// moment its link is known broken until it listens again, the cache answers nothing and keeps
/// nothing. A link can also die without a word, which TCP notices only after a minute, or deliver
/// late, so the listener sends this cache's `heartbeat` every second, a notification saying when it
/// was sent: the cache answers only while the latest heartbeat it heard was sent less than
/// `silenceLimit` ago, so it never trusts notifications running further behind than that.
///
/// A notification reaches this instance a moment after the change commits, so the instance that
/// makes a change also forgets the item itself once its transaction is over, and its next answer
/// already shows the change. Entries also expire after `timeToLive`, a bound on the harm of any
/// notification that never came.
///
/// A read races a change: it may have read the item just before the change committed and come
/// back after the change was forgotten. So a read takes a `ticket` first and `keep` stores what
/// it read only if nothing was forgotten in between (anything at all: a checkout's stock change
/// makes the reads in flight at that moment keep nothing, a few in a hundred under load).
public final class ItemCache: Sendable {
    /// Heartbeats start so (and anything else so is taken for one of another version); they
    /// forget nothing.
    private static let heartbeatPrefix = "heartbeat"

    private struct Entry {
        let item: Item
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [UUID: Entry] = [:]
        /// The item each kept variant and image belongs to (their ids are UUIDs of their own).
        var itemOfPart: [UUID: UUID] = [:]
        /// Moves on every `forget`: a read whose ticket is older may hold a forgotten version.
        var generation: UInt64 = 0
        var isListening = false
        /// When the latest heartbeat heard was sent (or when listening started).
        var heardAt: ContinuousClock.Instant
        var hits = 0
        var misses = 0

        func isTrusted(at now: ContinuousClock.Instant, silenceLimit: Duration) -> Bool {
            isListening && now < heardAt + silenceLimit
        }
    }

    /// A read's permission to `keep` what it reads, taken before it reads.
    public struct Ticket: Sendable {
        fileprivate let generation: UInt64
    }

    /// A cache that keeps nothing: for tests, and for stores that change items without showing
    /// them.
    public static let off = ItemCache(capacity: 0)

    /// How many items are kept at most (0: none; the cache is off).
    public let capacity: Int
    /// How long an entry is trusted without a change being heard.
    public let timeToLive: Duration
    /// How far behind the notifications may run: how long ago the latest heartbeat heard may
    /// have been sent.
    public let silenceLimit: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>
    /// This cache's own, in its heartbeats: others' (other instances') are not its measure.
    private let instance = UUID.random().lowercasedText
    /// Heartbeats carry their send instant as time since this one.
    private let origin: ContinuousClock.Instant

    public init(
        capacity: Int, timeToLive: Duration = .seconds(30), silenceLimit: Duration = .seconds(5),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.capacity = max(0, capacity)
        self.timeToLive = timeToLive
        self.silenceLimit = silenceLimit
        self.now = now
        self.origin = now()
        self.state = Mutex(State(heardAt: origin))
    }

    /// A heartbeat for the listener to notify: this cache's id and the instant it was made.
    public func heartbeat() -> String {
        let (seconds, attoseconds) = (now() - origin).components
        return "\(Self.heartbeatPrefix) \(instance) \(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)"
    }

    /// How many items are kept now; for tests and metrics.
    public var count: Int { state.withLock { $0.entries.count } }

    /// For `GET /metrics`: items kept, whether it answers, lookups answered and not since start.
    public var statistics: (items: Int, isTrusted: Bool, hits: Int, misses: Int) {
        let now = now()
        return state.withLock { ($0.entries.count, $0.isTrusted(at: now, silenceLimit: silenceLimit), $0.hits, $0.misses) }
    }

    /// The item as last kept, if it is still trusted.
    public func item(id: UUID) -> Item? {
        let now = now()
        return state.withLock { state in
            guard state.isTrusted(at: now, silenceLimit: silenceLimit), let entry = state.entries[id], entry.expires > now else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            return entry.item
        }
    }

    /// Taken before reading an item from the database; `nil` when nothing may be kept.
    public func ticket() -> Ticket? {
        guard capacity > 0 else { return nil }
        let now = now()
        return state.withLock { $0.isTrusted(at: now, silenceLimit: silenceLimit) ? Ticket(generation: $0.generation) : nil }
    }

    /// Keeps `item`, read after `ticket` was taken, unless something was forgotten since. When
    /// full, an arbitrary entry makes room.
    public func keep(_ item: Item, ticket: Ticket) {
        guard capacity > 0 else { return }
        let now = now()
        let expires = now + timeToLive
        state.withLock { state in
            guard state.isTrusted(at: now, silenceLimit: silenceLimit), state.generation == ticket.generation else { return }
            if state.entries[item.id] == nil, state.entries.count >= capacity, let evicted = state.entries.first {
                Self.remove(evicted.key, from: &state)
            }
            if let previous = state.entries.updateValue(Entry(item: item, expires: expires), forKey: item.id) {
                for part in Self.parts(of: previous.item) { state.itemOfPart[part] = nil }
            }
            for part in Self.parts(of: item) { state.itemOfPart[part] = item.id }
        }
    }

    /// Runs `change`, which changes these items or the items owning these variants or images (a
    /// transaction), and forgets them once it is over, committed or not: this instance's next
    /// read shows the change even before its notification arrives.
    public func forgetting<T>(items: [UUID] = [], owning parts: [UUID] = [], after change: () async throws -> T) async rethrows -> T {
        defer {
            forget(items: items)
            forget(owning: parts)
        }
        return try await change()
    }

    /// Forgets these items (and makes every read in flight keep nothing).
    public func forget(items: some Collection<UUID>) {
        guard !items.isEmpty else { return }
        state.withLock { state in
            state.generation &+= 1
            for id in items { Self.remove(id, from: &state) }
        }
    }

    /// Forgets the items owning these variants or images, as far as they are kept (and makes
    /// every read in flight keep nothing).
    public func forget(owning parts: some Collection<UUID>) {
        guard !parts.isEmpty else { return }
        state.withLock { state in
            state.generation &+= 1
            for part in parts {
                if let id = state.itemOfPart[part] { Self.remove(id, from: &state) }
            }
        }
    }

    /// Forgets every item.
    public func forgetAll() {
        state.withLock { Self.clear(&$0) }
    }

    /// Whether every change is being heard: the cache works only then, and starts empty.
    public func setListening(_ isListening: Bool) {
        let now = now()
        state.withLock { state in
            Self.clear(&state)
            state.isListening = isListening
            state.heardAt = now
        }
    }

    /// Acts on a notification of Migrations/0027 and 0028: item ids separated by commas, `*`, or a
    /// heartbeat (this cache's says how far behind the notifications run; others' say nothing).
    /// Anything else forgets everything, as the safe reading.
    public func hear(_ payload: String) {
        if payload.hasPrefix(Self.heartbeatPrefix) {
            let parts = payload.split(separator: " ")
            guard parts.count == 3, parts[1] == instance, let nanoseconds = Int64(parts[2]) else { return }
            let sent = origin + .nanoseconds(nanoseconds)
            state.withLock { $0.heardAt = max($0.heardAt, sent) }
            return
        }
        let ids = payload.split(separator: ",").map { UUID(text: String($0)) }
        if payload != "*", !ids.isEmpty, ids.allSatisfy({ $0 != nil }) {
            forget(items: ids.compactMap { $0 })
        } else {
            forgetAll()
        }
    }

    /// Forgets every item, and makes every read in flight keep nothing.
    private static func clear(_ state: inout State) {
        state.generation &+= 1
        state.entries.removeAll()
        state.itemOfPart.removeAll()
    }

    private static func remove(_ id: UUID, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: id) else { return }
        for part in parts(of: entry.item) { state.itemOfPart[part] = nil }
    }

    private static func parts(of item: Item) -> [UUID] {
        item.variants.map(\.id) + item.images.map(\.id)
    }
}
