import Foundation

/// Where reviews and their photos live. Implemented by `PostgresReviewStore`; mocked in use-case
/// tests. Every method throws `StoreUnavailable` when the store cannot be reached.
public protocol ReviewStore: Sendable {
    /// Stores a new review and adds its rating to the item's, in one transaction.
    /// - Throws: `ReviewError.alreadyReviewed`, `ReviewError.itemNotFound` (also for an item
    ///   archived).
    func insert(_ review: Review) async throws

    /// The review with its photos, or `nil` (also for a review of an archived item: it is no
    /// longer shown, and takes no photo).
    func review(id: UUID) async throws -> Review?

    /// An item's reviews with their photos, newest first, strictly after `cursor`.
    func reviews(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [Review]

    /// How the item's reviews rate it.
    func ratingSummary(itemID: UUID) async throws -> RatingSummary

    /// Whether the item exists and is on sale (an archived item's reviews are not listed).
    /// - Throws: `StoreUnavailable`.
    func itemExists(id: UUID) async throws -> Bool

    /// Takes one of the review's `limit` photo places for an upload about to start, unless its
    /// photos and the slots of uploads under way fill them; decided under a lock of the review, so
    /// concurrent uploads never pass the limit. Slots expired by `now` no longer count; this one
    /// expires at `expiresAt`.
    /// - Returns: whether the slot was taken.
    func reservePhotoSlot(id: UUID, reviewID: UUID, limit: Int, expiresAt: Date, now: Date) async throws -> Bool

    /// Records the photo an upload stored, in the place its slot held, and frees the slot.
    /// - Returns: the photo as recorded, its URL with it.
    func addPhoto(_ photo: ReviewPhoto, slotID: UUID) async throws -> ReviewPhoto

    /// Frees the slot of an upload that failed.
    func releasePhotoSlot(id: UUID) async throws
}
