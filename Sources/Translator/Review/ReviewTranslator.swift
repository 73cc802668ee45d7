import Domain

/// Review entities to response models.
public enum ReviewTranslator {
    public static func model(_ review: Review) -> ReviewModel {
        ReviewModel(
            id: review.id.uuidString.lowercased(),
            itemId: review.itemID.uuidString.lowercased(),
            content: review.content,
            rating: review.rating,
            photos: review.photos.map(model),
            createdAt: Timestamp.rfc3339(review.createdAt)
        )
    }

    public static func model(_ photo: ReviewPhoto) -> ReviewPhotoModel {
        ReviewPhotoModel(
            id: photo.id.uuidString.lowercased(),
            reviewId: photo.reviewID.uuidString.lowercased(),
            filename: photo.filename,
            contentType: photo.format.rawValue,
            size: photo.size,
            createdAt: Timestamp.rfc3339(photo.createdAt)
        )
    }

    public static func model(_ summary: RatingSummary) -> RatingSummaryModel {
        RatingSummaryModel(
            count: summary.count, average: summary.average,
            histogram: Dictionary(uniqueKeysWithValues: summary.histogram.map { (String($0.key), $0.value) }))
    }

    public static func model(_ page: Page<Review>, summary: RatingSummary) -> ReviewListModel {
        ReviewListModel(
            page: PageModel(data: page.items.map(model), nextCursor: page.nextCursor?.token), ratingSummary: model(summary))
    }

    public static func model(_ page: Page<ReviewPhoto>) -> PageModel<ReviewPhotoModel> {
        PageModel(data: page.items.map(model), nextCursor: page.nextCursor?.token)
    }
}
