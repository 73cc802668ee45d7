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

    public init(id: UUID, reviewID: UUID, itemID: UUID, filename: String, format: PhotoFormat, size: Int, createdAt: Date) {
        self.id = id
        self.reviewID = reviewID
        self.itemID = itemID
        self.filename = filename
        self.format = format
        self.size = size
        self.createdAt = createdAt
    }
}

/// What a client sends to review an item, before it is checked.
public struct ReviewDraft: Hashable, Sendable {
    public var content: String
    public var rating: Int

    public init(content: String, rating: Int) {
        self.content = content
        self.rating = rating
    }

    /// - Throws: `ValidationError` naming `content` and/or `rating`.
    public func validate() throws(ValidationError) {
        var errors = FieldErrors()
        let length = content.trimmingCharacters(in: .whitespacesAndNewlines).count
        errors.require(
            length >= 1 && content.storedLength <= ReviewRules.maxContentLength, "content",
            "must be 1 to \(ReviewRules.maxContentLength) characters")
        errors.require((1...5).contains(rating), "rating", "must be an integer from 1 to 5")
        try errors.throwIfAny()
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

/// The limits of reviews and their photos.
public enum ReviewRules {
    public static let maxContentLength = 2000
    public static let maxPhotos = 5
    public static let maxPhotoBytes = 10 * 1024 * 1024
    /// How long an upload's place among a review's photos is held for it: far longer than the
    /// longest media API deadline (`MEDIA_TIMEOUT_SECONDS` is at most 120), so only the place of
    /// an upload whose process died lapses.
    public static let photoSlotLifetime: TimeInterval = 600
}

/// What can go wrong with reviews besides invalid input.
public enum ReviewError: Error, Equatable, Sendable {
    case itemNotFound(UUID)
    case reviewNotFound(UUID)
    /// The customer already reviewed this item.
    case alreadyReviewed(itemID: UUID)
    /// Only the review's author may add photos.
    case notAuthor
    case tooManyPhotos(limit: Int)
    /// The request has no file in the `photo` field.
    case photoMissing
    case photoEmpty
    case photoTooLarge(limit: Int)
    /// The leading bytes are not those of a JPEG, PNG, GIF or WebP image.
    case photoUnrecognized
}
