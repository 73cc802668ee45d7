import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// Stores judge what has expired by the service's clock, which every use case gives them, not
/// PostgreSQL's: a photo slot and a stale push expire when the service says so.
@Suite("Expiry on the service's clock on real PostgreSQL")
struct PostgresServiceClockTests {
    @Test func aPhotoSlotExpiresByTheServicesClock() async throws {
        try await TestDatabase.with { db in
            let review = try await TestRows.insertReview(db, customerID: try await TestRows.insertCustomer(db))
            let store = PostgresReviewStore(database: db.pool)
            let now = Date()
            #expect(try await store.reservePhotoSlot(id: UUID(), reviewID: review, limit: 1, expiresAt: now + 3600, now: now))
            #expect(try await !store.reservePhotoSlot(id: UUID(), reviewID: review, limit: 1, expiresAt: now + 3600, now: now + 60))
            // Two hours on by the service's clock, the first slot has expired.
            #expect(try await store.reservePhotoSlot(id: UUID(), reviewID: review, limit: 1, expiresAt: now + 10_800, now: now + 7200))
        }
    }
}
