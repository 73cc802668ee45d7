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

/// `{"client_secret", "next_action": {"type", "redirect_url"?}, "expires_at"}`: the app hands the
/// client secret to the provider's SDK (`handleNextAction`), then calls
/// `POST /v1/orders/{id}/payment/refresh`; the stock stays reserved until `expires_at`.
public struct PaymentActionModel: Codable, Hashable, Sendable {
    public let clientSecret: String
    public let nextAction: NextActionModel
    public let expiresAt: String?

    public struct NextActionModel: Codable, Hashable, Sendable {
        public let type: String
        public let redirectURL: String?

        enum CodingKeys: String, CodingKey {
            case type
            case redirectURL = "redirect_url"
        }
    }

    enum CodingKeys: String, CodingKey {
        case clientSecret = "client_secret"
        case nextAction = "next_action"
        case expiresAt = "expires_at"
    }
}
