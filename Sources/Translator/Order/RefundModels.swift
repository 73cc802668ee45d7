/// A refund as the staff see it.
public struct RefundModel: Codable, Hashable, Sendable {
    public let id: String
    public let orderId: String
    public let amount: MoneyModel
    public let reason: String
    public let restock: Bool
    public let lines: [RefundLineModel]
    public let status: String
    public let providerRefundId: String?
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, amount, reason, restock, lines, status
        case orderId = "order_id"
        case providerRefundId = "provider_refund_id"
        case createdAt = "created_at"
    }

    /// `provider_refund_id` is written even when null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(orderId, forKey: .orderId)
        try container.encode(amount, forKey: .amount)
        try container.encode(reason, forKey: .reason)
        try container.encode(restock, forKey: .restock)
        try container.encode(lines, forKey: .lines)
        try container.encode(status, forKey: .status)
        try container.encode(providerRefundId, forKey: .providerRefundId)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// `{"item_id", "quantity"}`.
public struct RefundLineModel: Codable, Hashable, Sendable {
    public let itemId: String
    public let quantity: Int

    enum CodingKeys: String, CodingKey {
        case quantity
        case itemId = "item_id"
    }
}
