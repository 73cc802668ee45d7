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
            // Two appending at once: each may see the other's bytes not yet there, never more.
            let (thirdID, fourthID) = (uploads[2].id, uploads[3].id)
            async let third = try? store.append(
                id: thirdID, at: 0, bytes: .init(repeating: 3, count: 1500), pendingLimit: limit, now: now, expiresAt: later)
            async let fourth = try? store.append(
                id: fourthID, at: 0, bytes: .init(repeating: 4, count: 1500), pendingLimit: limit, now: now, expiresAt: later)
            let landed = [await third, await fourth].compactMap { $0 }
            #expect(!landed.isEmpty)
            #expect(try await stored() <= limit + 1500)
        }
    }
}
