/// An order as clients see it.
public struct OrderModel: Codable, Hashable, Sendable {
    public let id: String
    public let status: String
    public let lines: [LineModel]
    public let total: MoneyModel
    public let paymentIntentId: String?
    /// Minor units in `total`'s currency claimed by refunds not failed or canceled.
    public let refundedAmount: Int64
    public let refunds: [OrderRefundModel]
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, status, lines, total, refunds
        case paymentIntentId = "payment_intent_id"
        case refundedAmount = "refunded_amount"
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
        try container.encode(refundedAmount, forKey: .refundedAmount)
        try container.encode(refunds, forKey: .refunds)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// A refund as the customer's order shows it: `{"id", "amount", "status", "created_at"}`.
public struct OrderRefundModel: Codable, Hashable, Sendable {
    public let id: String
    public let amount: MoneyModel
    public let status: String
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, amount, status
        case createdAt = "created_at"
    }
}

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
