import Foundation

/// Where reviews and their photos live. Implemented by `PostgresReviewStore`; mocked in use-case
/// tests. Every method throws `StoreUnavailable` when the store cannot be reached.
public protocol ReviewStore: Sendable {
    /// Stores a new review and adds its rating to the item's, in one transaction.
    /// - Throws: `ReviewError.alreadyReviewed`, `ReviewError.itemNotFound`.
    func insert(_ review: Review) async throws

    /// The review with its photos, or `nil`.
    func review(id: UUID) async throws -> Review?

    /// An item's reviews with their photos, newest first, strictly after `cursor`.
    func reviews(itemID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [Review]

    /// How the item's reviews rate it.
    func ratingSummary(itemID: UUID) async throws -> RatingSummary

    func itemExists(id: UUID) async throws -> Bool

    /// Records a photo unless the review already has `limit`; decided under a lock of the review,
    /// so concurrent uploads never pass the limit.
    /// - Returns: whether it was recorded.
    func addPhoto(_ photo: ReviewPhoto, limit: Int) async throws -> Bool
}

/// The media API that stores photo files.
public protocol MediaStorage: Sendable {
    /// Uploads `file` under `filename`.
    /// - Returns: the name the media API stored it under.
    /// - Throws: `ExternalServiceError` when the API cannot be reached or refuses the file.
    func upload(_ file: PhotoFile, filename: String, format: PhotoFormat) async throws -> String
}
