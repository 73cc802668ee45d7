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
    /// While `requires_action`: what the app's payment SDK needs to complete 3-D Secure.
    public let payment: PaymentActionModel?
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, status, lines, total, refunds, payment
        case paymentIntentId = "payment_intent_id"
        case refundedAmount = "refunded_amount"
        case createdAt = "created_at"
    }

    /// `payment_intent_id` is written even when null; `payment` only while an action is awaited.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encode(lines, forKey: .lines)
        try container.encode(total, forKey: .total)
        try container.encode(paymentIntentId, forKey: .paymentIntentId)
        try container.encode(refundedAmount, forKey: .refundedAmount)
        try container.encode(refunds, forKey: .refunds)
        try container.encodeIfPresent(payment, forKey: .payment)
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
