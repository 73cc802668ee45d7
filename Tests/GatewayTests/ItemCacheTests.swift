import Domain
import Foundation
import Gateway
import PropertyBased
import Synchronization
import Testing

@Suite("ItemCache: what it keeps and when it forgets (no database)")
struct ItemCacheTests {
    /// An item whose name says which version of it was read.
    static func item(_ id: UUID, version: Int, variant: UUID = UUID(), image: UUID = UUID()) -> Item {
        let yen = Money(amount: 1200, currency: Currency("JPY")!)
        return Item(
            id: id, sku: "SKU", name: "v\(version)", description: "", category: "kitchen", taxClass: .standard, price: yen, stock: 1,
            createdAt: Date(timeIntervalSince1970: 0), reviewCount: 0, ratingAverage: nil, options: [],
            variants: [Variant(id: variant, sku: "SKU", options: [], price: yen, stock: 1)],
            images: [ItemImage(id: image, url: nil, alt: "", variantID: nil, position: 0)], thumbnailURL: nil, archivedAt: nil)
    }

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    static func listening(capacity: Int = 10, clock: ManualClock = ManualClock()) -> ItemCache {
        let cache = ItemCache(capacity: capacity, timeToLive: .seconds(30), silenceLimit: .seconds(5), now: { clock.now })
        cache.setListening(true)
        return cache
    }

    @Test func keepsNothingAndAnswersNothingUntilItListens() throws {
        let cache = ItemCache(capacity: 10)
        #expect(cache.ticket() == nil)
        cache.setListening(true)
        let id = UUID()
        cache.keep(Self.item(id, version: 1), ticket: try #require(cache.ticket()))
        #expect(cache.item(id: id)?.name == "v1")
        // The link broke: changes may go unheard, so everything kept is dropped and nothing is
        // answered or kept until it listens again.
        let ticket = try #require(cache.ticket())
        cache.setListening(false)
        #expect(cache.item(id: id) == nil)
        #expect(cache.ticket() == nil)
        cache.keep(Self.item(id, version: 1), ticket: ticket)
        cache.setListening(true)
        #expect(cache.item(id: id) == nil)
        #expect(cache.count == 0)
    }

    @Test func aCacheOfNoCapacityNeverKeeps() throws {
        let off = ItemCache(capacity: 0)
        off.setListening(true)
        #expect(off.ticket() == nil)
        let id = UUID()
        off.keep(Self.item(id, version: 1), ticket: try #require(Self.listening().ticket()))
        #expect(off.item(id: id) == nil && off.count == 0)
    }

    @Test func aReadThatRacedAChangeKeepsNothing() throws {
        let cache = Self.listening()
        let id = UUID()
        let ticket = try #require(cache.ticket())
        // The change commits and is forgotten while the read is on its way back.
        cache.forget(items: [id])
        cache.keep(Self.item(id, version: 1), ticket: ticket)
        #expect(cache.item(id: id) == nil)
    }

    @Test func forgetsTheItemOwningAVariantOrAnImage() throws {
        let cache = Self.listening()
        let (first, second) = (UUID(), UUID())
        let (variant, image) = (UUID(), UUID())
        cache.keep(Self.item(first, version: 1, variant: variant), ticket: try #require(cache.ticket()))
        cache.keep(Self.item(second, version: 1, image: image), ticket: try #require(cache.ticket()))
        cache.forget(owning: [variant])
        #expect(cache.item(id: first) == nil)
        #expect(cache.item(id: second) != nil)
        cache.forget(owning: [image])
        #expect(cache.item(id: second) == nil)
    }

    @Test func readsNotificationsOfIdsAndOfEverything() throws {
        let cache = Self.listening()
        let ids = (0..<3).map { _ in UUID() }
        for id in ids { cache.keep(Self.item(id, version: 1), ticket: try #require(cache.ticket())) }
        cache.hear("\(ids[0].uuidString.lowercased()),\(ids[1].uuidString.lowercased())")
        #expect(cache.item(id: ids[0]) == nil)
        #expect(cache.item(id: ids[1]) == nil)
        #expect(cache.item(id: ids[2]) != nil)
        cache.keep(Self.item(ids[2], version: 1), ticket: try #require(cache.ticket()))
        cache.hear(cache.heartbeat())
        cache.hear("heartbeat another-instance 12")
        cache.hear("heartbeat")
        #expect(cache.item(id: ids[2]) != nil, "a heartbeat forgets nothing")
        for payload in ["*", "not an id", "", "\(ids[2].uuidString),"] {
            cache.keep(Self.item(ids[2], version: 1), ticket: try #require(cache.ticket()))
            cache.hear(payload)
            #expect(cache.item(id: ids[2]) == nil, "payload \(payload) forgets everything")
        }
    }

    @Test func neverHoldsMoreThanItsCapacity() throws {
        let cache = Self.listening(capacity: 3)
        let ids = (0..<10).map { _ in UUID() }
        for id in ids { cache.keep(Self.item(id, version: 1), ticket: try #require(cache.ticket())) }
        #expect(cache.count == 3)
        #expect(cache.item(id: ids[9]) != nil, "the last kept is there")
    }

    @Test func anEntryExpires() throws {
        let clock = ManualClock()
        let cache = Self.listening(clock: clock)
        let id = UUID()
        cache.keep(Self.item(id, version: 1), ticket: try #require(cache.ticket()))
        for _ in 0..<7 {
            clock.advance(by: .seconds(4))
            cache.hear(cache.heartbeat())
        }
        #expect(cache.item(id: id) != nil, "28 s old")
        clock.advance(by: .seconds(2))
        cache.hear(cache.heartbeat())
        #expect(cache.item(id: id) == nil, "30 s old")
    }

    /// A link can die without a word, or deliver late: the cache answers, and keeps, only while
    /// the latest of its own heartbeats it heard was sent within the silence limit.
    @Test func answersOnlyWhileItsHeartbeatsArriveInTime() throws {
        let clock = ManualClock()
        let cache = Self.listening(clock: clock)
        let id = UUID()
        cache.keep(Self.item(id, version: 1), ticket: try #require(cache.ticket()))
        let ticket = try #require(cache.ticket())
        clock.advance(by: .milliseconds(4_900))
        #expect(cache.item(id: id) != nil)
        let sentAtFiveSeconds = cache.heartbeat()
        clock.advance(by: .milliseconds(200))
        #expect(cache.item(id: id) == nil, "nothing heard for 5.1 s")
        #expect(cache.ticket() == nil)
        #expect(cache.statistics.isTrusted == false)
        let other = UUID()
        cache.keep(Self.item(other, version: 1), ticket: ticket)
        // A heartbeat sent 0.2 s ago: the notifications run 0.2 s behind, which is trusted, and
        // what was kept before stands (they arrive in order).
        cache.hear(sentAtFiveSeconds)
        #expect(cache.item(id: id) != nil)
        #expect(cache.item(id: other) == nil, "a read that ended during the silence kept nothing")
        // A heartbeat heard 6 s after it was sent: 6 s behind, not trusted.
        let late = cache.heartbeat()
        clock.advance(by: .seconds(6))
        cache.hear(late)
        #expect(cache.item(id: id) == nil)
        // Another instance's heartbeat says nothing of this one's link.
        cache.hear("heartbeat 1BA4C5E2-0000-0000-0000-000000000000 99999999999999")
        #expect(cache.item(id: id) == nil)
        cache.hear(cache.heartbeat())
        #expect(cache.item(id: id) != nil)
    }

    /// Steps of the model below: reads start, see the database, and end in any interleaving with
    /// changes (each forgotten once committed, as the stores do), notifications and broken links.
    enum Step: CaseIterable {
        case startRead, snapshot, finishRead, change, changeByVariant, notifyEverything, relisten
    }

    /// Whatever interleaving of reads and changes, an item the cache answers is the database's
    /// current version of it.
    @Test func neverAnswersAForgottenVersion() async {
        let steps = Gen.int(in: 0...(Step.allCases.count - 1)).map { Step.allCases[$0] }
        await propertyCheck(count: 300, input: PropertyBased.zip(steps, Gen.int(in: 0...2), Gen.int(in: 0...3)).array(of: 1...80)) {
            script in
            let cache = Self.listening(capacity: 2)
            let ids = (0..<3).map { _ in UUID() }
            let variants = (0..<3).map { _ in UUID() }
            var versions = [0, 0, 0]
            var reads: [(index: Int, ticket: ItemCache.Ticket?, version: Int?)] = []
            for (step, index, pick) in script {
                switch step {
                case .startRead:
                    if let hit = cache.item(id: ids[index]) {
                        #expect(hit.name == "v\(versions[index])")
                    } else {
                        reads.append((index, cache.ticket(), nil))
                    }
                case .snapshot:
                    if let open = reads.firstIndex(where: { $0.version == nil }) { reads[open].version = versions[reads[open].index] }
                case .finishRead:
                    guard let done = reads.indices.filter({ reads[$0].version != nil }).dropFirst(pick % 2).first else { break }
                    let read = reads.remove(at: done)
                    if let ticket = read.ticket, let version = read.version {
                        cache.keep(Self.item(ids[read.index], version: version, variant: variants[read.index]), ticket: ticket)
                    }
                case .change:
                    versions[index] += 1
                    cache.forget(items: [ids[index]])
                case .changeByVariant:
                    versions[index] += 1
                    cache.forget(owning: [variants[index]])
                case .notifyEverything:
                    cache.hear("*")
                case .relisten:
                    cache.setListening(false)
                    cache.setListening(true)
                }
                for (id, version) in zip(ids, versions) {
                    if let hit = cache.item(id: id) { #expect(hit.name == "v\(version)") }
                }
            }
        }
    }
}
