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
