import Domain
import Foundation
import Gateway
import TestSupport
import Testing

@Suite("PostgresResumableUploadStore on real PostgreSQL")
struct PostgresResumableUploadStoreTests {
    /// Small appends join the last piece only while it is small: a client sending a byte a
    /// request adds bytes, not rows, and no request rewrites a large piece for its byte.
    @Test func smallAppendsJoinOnlyASmallLastPiece() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'up@example.com', 'N', 'h')", customer)
            let store = PostgresResumableUploadStore(database: db.pool)
            let now = Date()
            let later = now.addingTimeInterval(3600)
            let upload = ResumableUpload(
                id: UUID(), customerID: customer, target: "POST /v1/reviews/{id}/photos", parameters: ["id": UUID().uuidString],
                maxSize: 1 << 20, length: nil, offset: 0, state: .open, completingUntil: nil, answer: nil, expiresAt: later)
            try await store.create(upload, maximumOpen: 10, now: now)
            var sent: [UInt8] = []
            func append(_ bytes: [UInt8]) async throws {
                let offset = try await store.append(
                    id: upload.id, at: sent.count, bytes: bytes, pendingLimit: 1 << 30, now: now, expiresAt: later)
                sent += bytes
                #expect(offset == sent.count)
            }
            func pieces() async throws -> [Int] {
                try await store.chunks(id: upload.id, from: 0, limit: 100).map(\.bytes.count)
            }
            for byte in UInt8(0)..<10 { try await append([byte]) }
            #expect(try await pieces() == [10], "bytes joined, not rows")
            try await append([UInt8](repeating: 7, count: ResumableUploadRules.joinedBelow))
            #expect(try await pieces() == [10 + ResumableUploadRules.joinedBelow], "joined while the last piece was small")
            try await append([1])
            try await append([2])
            #expect(try await pieces() == [10 + ResumableUploadRules.joinedBelow, 2], "a large last piece is not rewritten")
            try await append([UInt8](repeating: 9, count: ResumableUploadRules.chunkSize))
            #expect(try await pieces() == [10 + ResumableUploadRules.joinedBelow, 2, ResumableUploadRules.chunkSize])
            #expect(try await store.chunks(id: upload.id, from: 0, limit: 100).flatMap(\.bytes) == sent)
        }
    }

    /// Every unfinished upload's bytes together stay within the bound, across customers: one
    /// past it stores nothing and throws, a finished one's bytes no longer count, and two
    /// customers appending at once pass it by at most their pieces.
    @Test func unfinishedUploadsHoldAtMostTheBoundTogether() async throws {
        try await TestDatabase.with { db in
            let store = PostgresResumableUploadStore(database: db.pool)
            let now = Date()
            let later = now.addingTimeInterval(3600)
            var uploads: [ResumableUpload] = []
            for n in 0..<4 {
                let customer = UUID()
                try await db.pool.query(
                    "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'h')", customer, "up\(n)@example.com")
                let upload = ResumableUpload(
                    id: UUID(), customerID: customer, target: "POST /v1/reviews/{id}/photos", parameters: ["id": UUID().uuidString],
                    maxSize: 1 << 20, length: nil, offset: 0, state: .open, completingUntil: nil, answer: nil, expiresAt: later)
                try await store.create(upload, maximumOpen: 10, now: now)
                uploads.append(upload)
            }
            let limit = 3000
            func stored() async throws -> Int {
                try await db.pool.query("SELECT COALESCE(sum(length(bytes)), 0)::int AS n FROM resumable_upload_chunks").rows[0].decode("n")
            }
            #expect(
                try await store.append(
                    id: uploads[0].id, at: 0, bytes: .init(repeating: 1, count: 2000), pendingLimit: limit, now: now, expiresAt: later)
                    == 2000)
            await #expect(throws: UploadStorageFull.self) {
                try await store.append(
                    id: uploads[1].id, at: 0, bytes: .init(repeating: 2, count: 1001), pendingLimit: limit, now: now, expiresAt: later)
            }
            #expect(try await stored() == 2000, "nothing of the refused piece is kept")
            #expect(try await store.upload(id: uploads[1].id, now: now)?.offset == 0)
            #expect(
                try await store.append(
                    id: uploads[1].id, at: 0, bytes: .init(repeating: 2, count: 1000), pendingLimit: limit, now: now, expiresAt: later)
                    == 1000)
            // The first finishes: its bytes are dropped and no longer count.
            #expect(try await store.setLength(id: uploads[0].id, length: 2000))
            let claim = try #require(try await store.claimCompletion(id: uploads[0].id, now: now, until: later))
            try await store.finish(
                id: uploads[0].id, claim: claim, answer: UploadAnswer(status: 201, contentType: nil, body: []), expiresAt: later)
            #expect(try await stored() == 1000)
            // Two appending at once, each piece past the bound by itself: neither lands.
            let (thirdID, fourthID) = (uploads[2].id, uploads[3].id)
            async let third = try? store.append(
                id: thirdID, at: 0, bytes: .init(repeating: 3, count: 2001), pendingLimit: limit, now: now, expiresAt: later)
            async let fourth = try? store.append(
                id: fourthID, at: 0, bytes: .init(repeating: 4, count: 2001), pendingLimit: limit, now: now, expiresAt: later)
            #expect([await third, await fourth].compactMap { $0 }.isEmpty)
            #expect(try await stored() == 1000)
        }
    }

    /// At the bound, uploads untouched for `idleAfter` make room for one under way, those
    /// untouched longest first and no more of them than needed; fresher ones never do. Parked
    /// uploads that got a byte a day blocked every other customer's.
    @Test func idleUploadsMakeRoomForOnesUnderWay() async throws {
        try await TestDatabase.with { db in
            let store = PostgresResumableUploadStore(database: db.pool)
            let start = Date()
            let lifetime: TimeInterval = 3600
            var uploads: [UUID] = []
            for _ in 0..<4 {
                let upload = ResumableUpload(
                    id: UUID(), customerID: try await TestRows.insertCustomer(db), target: "POST /v1/reviews/{id}/photos",
                    parameters: ["id": UUID().uuidString], maxSize: 1 << 20, length: nil, offset: 0, state: .open, completingUntil: nil,
                    answer: nil, expiresAt: start.addingTimeInterval(lifetime))
                try await store.create(upload, maximumOpen: 10, now: start)
                uploads.append(upload.id)
            }
            func append(_ index: Int, _ count: Int, at seconds: TimeInterval, offset: Int = 0) async throws -> Int? {
                let now = start.addingTimeInterval(seconds)
                return try await store.append(
                    id: uploads[index], at: offset, bytes: .init(repeating: UInt8(index), count: count), pendingLimit: 3000, now: now,
                    expiresAt: now.addingTimeInterval(lifetime))
            }
            #expect(try await append(0, 1000, at: 0) == 1000)
            #expect(try await append(1, 1000, at: 10) == 1000)
            #expect(try await append(2, 1000, at: 50) == 1000)
            // At 65 s only the first is idle (60 s untouched): it makes room, the others stay.
            #expect(try await append(3, 900, at: 65) == 900)
            #expect(try await store.upload(id: uploads[0], now: start) == nil)
            #expect(try await store.upload(id: uploads[1], now: start)?.offset == 1000)
            // More than the idle ones hold: refused, and nothing is dropped for it.
            await #expect(throws: UploadStorageFull.self) { try await append(3, 2000, at: 75, offset: 900) }
            #expect(try await store.upload(id: uploads[1], now: start)?.offset == 1000)
            #expect(try await store.upload(id: uploads[2], now: start)?.offset == 1000)
        }
    }
}
