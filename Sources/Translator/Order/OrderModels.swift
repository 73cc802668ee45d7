/// An order as clients see it.
public struct OrderModel: Codable, Hashable, Sendable {
    public let id: String
    public let status: String
    public let lines: [LineModel]
    public let total: MoneyModel
    public let paymentIntentId: String?
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, status, lines, total
        case paymentIntentId = "payment_intent_id"
        case createdAt = "created_at"
    }

    /// `payment_intent_id` is written even when null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encode(lines, forKey: .lines)
        try container.encode(total, forKey: .total)
        try container.encode(paymentIntentId, forKey: .paymentIntentId)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
