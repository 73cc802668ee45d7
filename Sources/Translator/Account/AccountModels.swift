/// `POST /v1/customers` answer.
public struct CustomerModel: Codable, Hashable, Sendable {
    public let id: String
    public let email: String
    public let name: String
}

/// `POST /v1/sessions` answer.
public struct SessionModel: Codable, Hashable, Sendable {
    public let token: String
    public let customerId: String
    public let expiresAt: String

    enum CodingKeys: String, CodingKey {
        case token
        case customerId = "customer_id"
        case expiresAt = "expires_at"
    }
}
