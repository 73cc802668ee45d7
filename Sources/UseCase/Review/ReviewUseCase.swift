import Domain
import Foundation

/// Reviews of items: post the text at once, add photos one by one, read an item's reviews with
/// its rating summary.
public struct ReviewUseCase: Sendable {
    let store: any ReviewStore
    /// `nil` when no media API is configured: photos are then refused with `ExternalServiceError`.
    let media: (any MediaStorage)?
    let system: SystemContext

    public init(store: any ReviewStore, media: (any MediaStorage)?, system: SystemContext) {
        self.store = store
        self.media = media
        self.system = system
    }

    /// Stores the review; its rating counts for the item at once.
    /// - Throws: `ValidationError`, `ReviewError.alreadyReviewed`, `.itemNotFound`,
    ///   `StoreUnavailable`.
    public func post(customerID: UUID, itemID: UUID, _ draft: ReviewDraft) async throws -> Review {
        try draft.validate()
        let review = Review(
            id: system.newID(), itemID: itemID, customerID: customerID, content: draft.content, rating: draft.rating, photos: [],
            createdAt: system.now())
        try await store.insert(review)
        return review
    }

    /// One page of the item's reviews, newest first, and its rating summary.
    /// - Throws: `ValidationError`, `ReviewError.itemNotFound`, `StoreUnavailable`.
    public func list(itemID: UUID, limit: Int?, cursor: String?) async throws -> (page: Page<Review>, summary: RatingSummary) {
        let page = try PageRequest(limit: limit, cursor: cursor)
        guard try await store.itemExists(id: itemID) else { throw ReviewError.itemNotFound(itemID) }
        let found = try await store.reviews(itemID: itemID, after: page.after, limit: page.fetchLimit)
        let summary = try await store.ratingSummary(itemID: itemID)
        return (Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }, summary)
    }

    /// Checks that the customer may add a photo to the review now, before the upload is read.
    /// - Throws: `ReviewError.reviewNotFound`, `.notAuthor`, `.tooManyPhotos`, `StoreUnavailable`.
    @discardableResult
    public func authorizePhoto(customerID: UUID, reviewID: UUID) async throws -> Review {
        guard let review = try await store.review(id: reviewID) else { throw ReviewError.reviewNotFound(reviewID) }
        guard review.customerID == customerID else { throw ReviewError.notAuthor }
        guard review.photos.count < ReviewRules.maxPhotos else { throw ReviewError.tooManyPhotos(limit: ReviewRules.maxPhotos) }
        return review
    }

    /// Checks the uploaded file, takes its place among the review's photos, stores it at the media
    /// API under a name of our own, then records it. Taking the place first means an upload that
    /// loses a race for the last place is refused before anything reaches the media API. Nothing
    /// is recorded (and the place is freed) when the media API fails; the client may retry.
    /// - Throws: what `authorizePhoto` throws, `ReviewError.photoEmpty`, `.photoTooLarge`,
    ///   `.photoUnrecognized`, `.tooManyPhotos` (when concurrent uploads filled the review),
    ///   `ExternalServiceError`, `StoreUnavailable`.
    public func addPhoto(customerID: UUID, reviewID: UUID, file: PhotoFile) async throws -> ReviewPhoto {
        let review = try await authorizePhoto(customerID: customerID, reviewID: reviewID)
        guard file.size > 0 else { throw ReviewError.photoEmpty }
        guard file.size <= ReviewRules.maxPhotoBytes else { throw ReviewError.photoTooLarge(limit: ReviewRules.maxPhotoBytes) }
        guard let format = PhotoFormat.sniff(file.leadingBytes) else { throw ReviewError.photoUnrecognized }
        guard let media else { throw ExternalServiceError(service: "media", reason: "MEDIA_API_URL is not set") }
        let id = system.newID()
        let expiresAt = system.now().addingTimeInterval(ReviewRules.photoSlotLifetime)
        guard try await store.reservePhotoSlot(id: id, reviewID: review.id, limit: ReviewRules.maxPhotos, expiresAt: expiresAt) else {
            throw ReviewError.tooManyPhotos(limit: ReviewRules.maxPhotos)
        }
        let stored: String
        do {
            stored = try await media.upload(file, filename: "\(id.uuidString.lowercased()).\(format.fileExtension)", format: format)
        } catch {
            try? await store.releasePhotoSlot(id: id)
            throw error
        }
        let photo = ReviewPhoto(
            id: id, reviewID: review.id, itemID: review.itemID, filename: stored, format: format, size: file.size, createdAt: system.now())
        try await store.addPhoto(photo, slotID: id)
        return photo
    }
}
