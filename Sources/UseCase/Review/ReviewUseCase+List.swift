// once: created by scenegen from Specs/Review.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension ReviewUseCase {
    /// `GET /v1/items/{item_id}/reviews` (auth: public): one page of the item's reviews, newest
    /// first, and the summary of all its ratings.
    /// - Throws: `ValidationError` for a bad limit or cursor; `StoreUnavailable`.
    public func list(_ input: ReviewListInput) async throws -> ReviewListOutcome {
        let page = try PageRequest(limit: input.limit, cursor: input.cursor)
        guard try await store.itemExists(id: input.itemID) else { return .itemNotFound(itemID: input.itemID) }
        let found = try await store.reviews(itemID: input.itemID, after: page.after, limit: page.fetchLimit)
        let summary = try await store.ratingSummary(itemID: input.itemID)
        let reviews = Page(fetched: found, request: page) { PageCursor(createdAt: $0.createdAt, id: $0.id) }
        return .list(ReviewList(data: reviews.items, nextCursor: reviews.nextCursor?.token, ratingSummary: summary))
    }
}
