// once: created by scenegen from Specs/Review.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension ReviewUseCase {
    /// `POST /v1/items/{item_id}/reviews` (auth: customer): stores the review; its rating
    /// counts for the item at once. One review per customer and item.
    /// - Throws: `ValidationError` for content of spaces only; `StoreUnavailable`.
    public func post(_ input: ReviewPostInput) async throws -> ReviewPostOutcome {
        var errors = FieldErrors()
        errors.require(!input.content.allSatisfy(\.isWhitespace), "content", "must not be blank")
        try errors.throwIfAny()
        let review = Review(
            id: system.newID(), itemID: input.itemID, customerID: input.customerID, content: input.content, rating: input.rating,
            photos: [], createdAt: system.now())
        do {
            try await store.insert(review)
        } catch ReviewError.alreadyReviewed {
            return .alreadyReviewed
        } catch ReviewError.itemNotFound(let id) {
            return .itemNotFound(itemID: id)
        }
        return .created(review)
    }
}
