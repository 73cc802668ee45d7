import Domain
import Foundation
import MockSupport

/// A `ReviewStore` that answers what the test set and records every call.
final class MockReviewStore: ReviewStore, Sendable {
    enum Call: Equatable, Sendable {
        case insert(Review)
        case review(UUID)
        case reviews(UUID, PageCursor?, Int)
        case ratingSummary(UUID)
        case itemExists(UUID)
        case reservePhotoSlot(UUID, UUID, Int, Date)
        case addPhoto(ReviewPhoto, UUID)
        case releasePhotoSlot(UUID)
    }

    struct Stubs: Sendable {
        var insert: (@Sendable (Review) throws -> Void)?
        var review: (@Sendable (UUID) throws -> Review?)?
        var reviews: (@Sendable (UUID, PageCursor?, Int) throws -> [Review])?
        var ratingSummary: (@Sendable (UUID) throws -> RatingSummary)?
        var itemExists: (@Sendable (UUID) throws -> Bool)?
        var reservePhotoSlot: (@Sendable (UUID, UUID, Int, Date) throws -> Bool)?
        var addPhoto: (@Sendable (ReviewPhoto, UUID) throws -> ReviewPhoto)?
        var releasePhotoSlot: (@Sendable (UUID) throws -> Void)?
    }

    private let recorder: MockRecorder<Call, Stubs>

    init(_ configure: (inout Stubs) -> Void = { _ in }) {
        recorder = MockRecorder(Stubs(), configure)
    }

    var calls: [Call] { recorder.calls }

    func insert(_ review: Review) async throws { try recorder.record(.insert(review), \.insert)(review) }
    func review(id: UUID) async throws -> Review? { try recorder.record(.review(id), \.review)(id) }
    func reviews(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [Review] {
        try recorder.record(.reviews(itemID, cursor, limit), \.reviews)(itemID, cursor, limit)
    }
    func ratingSummary(itemID: UUID) async throws -> RatingSummary { try recorder.record(.ratingSummary(itemID), \.ratingSummary)(itemID) }
    func itemExists(id: UUID) async throws -> Bool { try recorder.record(.itemExists(id), \.itemExists)(id) }
    func reservePhotoSlot(id: UUID, reviewID: UUID, limit: Int, expiresAt: Date, now: Date) async throws -> Bool {
        try recorder.record(.reservePhotoSlot(id, reviewID, limit, expiresAt), \.reservePhotoSlot)(id, reviewID, limit, expiresAt)
    }
    func addPhoto(_ photo: ReviewPhoto, slotID: UUID) async throws -> ReviewPhoto {
        try recorder.record(.addPhoto(photo, slotID), \.addPhoto)(photo, slotID)
    }
    func releasePhotoSlot(id: UUID) async throws { try recorder.record(.releasePhotoSlot(id), \.releasePhotoSlot)(id) }
}
