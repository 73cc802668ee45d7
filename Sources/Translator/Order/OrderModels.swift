/// An order as clients see it.
public struct OrderModel: Codable, Hashable, Sendable {
    public let id: String
    public let status: String
    public let lines: [LineModel]
    public let total: MoneyModel
    public let paymentIntentId: String?
    /// While `requires_action`: what the app's payment SDK needs to complete 3-D Secure.
    public let payment: PaymentActionModel?
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, status, lines, total, payment
        case paymentIntentId = "payment_intent_id"
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
        try container.encodeIfPresent(payment, forKey: .payment)
        try container.encode(createdAt, forKey: .createdAt)
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
