/// A review as clients see it, with its photos. Reviews are public: nothing in it says which
/// customer wrote it (an id would let anyone link a customer's reviews together).
public struct ReviewModel: Codable, Hashable, Sendable {
    public let id: String
    public let itemId: String
    public let content: String
    public let rating: Int
    public let photos: [ReviewPhotoModel]
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, content, rating, photos
        case itemId = "item_id"
        case createdAt = "created_at"
    }
}

/// `{"id","review_id","filename","content_type","size","created_at"}`.
public struct ReviewPhotoModel: Codable, Hashable, Sendable {
    public let id: String
    public let reviewId: String
    public let filename: String
    public let contentType: String
    public let size: Int
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, filename, size
        case reviewId = "review_id"
        case contentType = "content_type"
        case createdAt = "created_at"
    }
}

/// `{"count", "average", "histogram": {"1": n, ..., "5": n}}`; `average` is null without reviews.
public struct RatingSummaryModel: Codable, Hashable, Sendable {
    public let count: Int
    public let average: Double?
    public let histogram: [String: Int]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(average, forKey: .average)
        try container.encode(histogram, forKey: .histogram)
    }

    enum CodingKeys: String, CodingKey { case count, average, histogram }
}

/// An item's reviews: a page of them and the summary of all.
public struct ReviewListModel: Encodable, Sendable {
    public let page: PageModel<ReviewModel>
    public let ratingSummary: RatingSummaryModel

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
        case ratingSummary = "rating_summary"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(page.data, forKey: .data)
        try container.encode(page.nextCursor, forKey: .nextCursor)
        try container.encode(ratingSummary, forKey: .ratingSummary)
    }
}

/// Read back by the HTTP tests (in an extension, so the memberwise initializer stays).
extension ReviewListModel: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            page: PageModel(
                data: try container.decode([ReviewModel].self, forKey: .data),
                nextCursor: try container.decodeIfPresent(String.self, forKey: .nextCursor)),
            ratingSummary: try container.decode(RatingSummaryModel.self, forKey: .ratingSummary))
    }
}
