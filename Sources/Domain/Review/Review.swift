import Foundation

/// A customer's review of an item: text and a rating, then up to `ReviewRules.maxPhotos` photos
/// uploaded one by one.
public struct Review: Hashable, Sendable {
    public let id: UUID
    public let itemID: UUID
    public let customerID: UUID
    public let content: String
    public let rating: Int
    /// Oldest first, as they were uploaded.
    public var photos: [ReviewPhoto]
    public let createdAt: Date

    public init(id: UUID, itemID: UUID, customerID: UUID, content: String, rating: Int, photos: [ReviewPhoto], createdAt: Date) {
        self.id = id
        self.itemID = itemID
        self.customerID = customerID
        self.content = content
        self.rating = rating
        self.photos = photos
        self.createdAt = createdAt
    }
}

/// A photo of a review, stored by the media API under a name the service chose.
public struct ReviewPhoto: Hashable, Sendable {
    public let id: UUID
    public let reviewID: UUID
    public let itemID: UUID
    public let filename: String
    public let format: PhotoFormat
    public let size: Int
    public let createdAt: Date
    /// Where the media API publishes the file (`MEDIA_PUBLIC_URL` and the file name), as the
    /// store read it; nil while the service knows of no media API.
    public let url: String?

    /// The format as answers name it (`content_type`).
    public var contentType: PhotoFormat { format }

    public init(
        id: UUID, reviewID: UUID, itemID: UUID, filename: String, format: PhotoFormat, size: Int, createdAt: Date, url: String? = nil
    ) {
        self.id = id
        self.reviewID = reviewID
        self.itemID = itemID
        self.filename = filename
        self.format = format
        self.size = size
        self.createdAt = createdAt
        self.url = url
    }
}

/// How an item is rated: how many reviews, their average and how many gave each star.
public struct RatingSummary: Hashable, Sendable {
    /// Reviews per rating, 1 through 5.
    public let histogram: [Int: Int]

    public init(histogram: [Int: Int]) {
        var complete: [Int: Int] = [:]
        for stars in 1...5 { complete[stars] = histogram[stars] ?? 0 }
        self.histogram = complete
    }

    public var count: Int { histogram.values.reduce(0, +) }

    /// The mean rating rounded to two decimals; `nil` without reviews.
    public var average: Double? {
        guard count > 0 else { return nil }
        let sum = histogram.reduce(0) { $0 + $1.key * $1.value }
        return RatingSummary.rounded(sum: sum, count: count)
    }

    /// `sum / count` to two decimals, computed in integers so the same ratings always print alike.
    public static func rounded(sum: Int, count: Int) -> Double {
        Double((sum * 200 + count) / (2 * count)) / 100
    }
}

/// The limits of reviews and their photos the logic keeps (a review's length and a photo's
/// size are the spec's: `Specs/Review.yml`).
public enum ReviewRules {
    public static let maxPhotos = 5
    /// How long an upload's place among a review's photos is held for it: far longer than the
    /// longest media API deadline (`MEDIA_TIMEOUT_SECONDS` is at most 120), so only the place of
    /// an upload whose process died lapses.
    public static let photoSlotLifetime: Duration = .seconds(600)
}

/// What the review store refuses besides being unreachable (each an outcome of `post`).
public enum ReviewError: Error, Equatable, Sendable {
    case itemNotFound(UUID)
    /// The customer already reviewed this item.
    case alreadyReviewed(itemID: UUID)
}
