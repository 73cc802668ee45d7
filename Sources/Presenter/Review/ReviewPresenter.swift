import Domain
import Translator

/// Review outcomes to HTTP answers.
public enum ReviewPresenter {
    /// 201 with the review (its `photos` empty).
    public static func created(_ outcome: Result<Review, any Error>) -> Presentation {
        outcome.map { .json(201, ReviewTranslator.model($0)) }.recover(problem)
    }

    /// 200 with `{"data", "next_cursor", "rating_summary"}`.
    public static func list(_ outcome: Result<(page: Page<Review>, summary: RatingSummary), any Error>) -> Presentation {
        outcome.map { .json(200, ReviewTranslator.model($0.page, summary: $0.summary)) }.recover(problem)
    }

    /// 201 with the photo.
    public static func photoCreated(_ outcome: Result<ReviewPhoto, any Error>) -> Presentation {
        outcome.map { .json(201, ReviewTranslator.model($0)) }.recover(problem)
    }

    public static func problem(_ error: any Error) -> Presentation {
        guard let error = error as? ReviewError else { return Problem.from(error) }
        switch error {
        case .itemNotFound(let id):
            return Problem.notFound("No item has id \(id.uuidString.lowercased()).")
        case .reviewNotFound(let id):
            return Problem.notFound("No review has id \(id.uuidString.lowercased()).")
        case .alreadyReviewed:
            return Problem.make(
                409, "already-reviewed", "Already reviewed", detail: "You have already reviewed this item; one review per item.")
        case .notAuthor:
            return Problem.make(403, "forbidden", "Forbidden", detail: "Only the review's author may add photos to it.")
        case .tooManyPhotos(let limit):
            return Problem.make(
                409, "too-many-photos", "Too many photos", detail: "A review holds at most \(limit) photos.",
                extensions: ["limit": .int(limit)])
        case .photoMissing:
            return Problem.validation(ValidationError([FieldError("photo", "is required: send one file in the multipart field photo")]))
        case .photoEmpty:
            return Problem.validation(ValidationError([FieldError("photo", "is empty")]))
        case .photoTooLarge(let limit):
            return Problem.make(
                413, "payload-too-large", "Payload too large", detail: "A photo may have at most \(limit) bytes.",
                errors: [FieldError("photo", "must be at most \(limit) bytes")])
        case .photoUnrecognized:
            return Problem.make(
                415, "unsupported-media-type", "Unsupported media type", detail: "The file is not a JPEG, PNG, GIF or WebP image.",
                errors: [FieldError("photo", "must be a JPEG, PNG, GIF or WebP image")])
        }
    }
}
