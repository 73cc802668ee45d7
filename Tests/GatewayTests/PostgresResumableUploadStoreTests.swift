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
                let offset = try await store.append(id: upload.id, at: sent.count, bytes: bytes, now: now, expiresAt: later)
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
}
