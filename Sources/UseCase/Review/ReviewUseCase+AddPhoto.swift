// once: created by scenegen from Specs/Review.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension ReviewUseCase {
    /// Whether the customer may add a photo to the review now, asked before the upload is read:
    /// the review exists, is theirs and has room.
    /// - Throws: `StoreUnavailable`.
    public func addPhotoBeforeUpload(_ input: ReviewAddPhotoInput) async throws -> ReviewAddPhotoOutcome? {
        guard let review = try await store.review(id: input.id) else { return .reviewNotFound(id: input.id) }
        return refusal(of: review, for: input)
    }

    /// Why `review` takes no photo from this customer now, or `nil` when it does.
    private func refusal(of review: Review, for input: ReviewAddPhotoInput) -> ReviewAddPhotoOutcome? {
        guard review.customerID == input.customerID else { return .notAuthor }
        guard review.photos.count < ReviewRules.maxPhotos else { return .tooManyPhotos(limit: ReviewRules.maxPhotos) }
        return nil
    }

    /// `POST /v1/reviews/{id}/photos` (auth: customer): checks the uploaded file, takes its place
    /// among the review's photos, stores it at the media API under a name of our own, then
    /// records it. Taking the place first means an upload that loses a race for the last place
    /// is refused before anything reaches the media API. Nothing is recorded (and the place is
    /// freed) when the media API fails; the client may retry. A resumable upload's photo takes
    /// the upload's id, so handing the same upload on twice records one photo.
    /// - Throws: `ExternalServiceError` (no media API, or it failed), `StoreUnavailable`.
    public func addPhoto(_ input: ReviewAddPhotoInput, upload: UploadedFile) async throws -> ReviewAddPhotoOutcome {
        // Read again: the review may have changed while the upload was read.
        let review = try await store.review(id: input.id)
        // A resumable upload handed on again (its first delivery's instance died after
        // recording it) records nothing twice.
        if let uploadID = upload.id, review?.customerID == input.customerID,
            let recorded = review?.photos.first(where: { $0.id == uploadID })
        {
            return .created(recorded)
        }
        guard let review else { return .reviewNotFound(id: input.id) }
        if let refusal = refusal(of: review, for: input) { return refusal }
        guard upload.size > 0 else { return .photoEmpty }
        guard let format = PhotoFormat.sniff(upload.leadingBytes) else { return .photoUnrecognized }
        guard let media else { throw ExternalServiceError(service: "media", reason: "MEDIA_API_URL is not set") }
        let id = upload.id ?? system.newID()
        let now = system.now()
        guard
            try await store.reservePhotoSlot(
                id: id, reviewID: review.id, limit: ReviewRules.maxPhotos, expiresAt: now + ReviewRules.photoSlotLifetime, now: now)
        else {
            return .tooManyPhotos(limit: ReviewRules.maxPhotos)
        }
        let stored: String
        do {
            stored = try await media.upload(upload, filename: "\(id.lowercasedText).\(format.fileExtension)", format: format)
        } catch {
            try? await store.releasePhotoSlot(id: id)
            throw error
        }
        let photo = ReviewPhoto(
            id: id, reviewID: review.id, itemID: review.itemID, filename: stored, format: format, size: upload.size,
            createdAt: system.now())
        return .created(try await store.addPhoto(photo, slotID: id))
    }
}
