import Domain

/// `{"id","email","name","locale","marketing_opt_in","created_at"}`.
public struct CustomerSettingsModel: Encodable, Hashable, Sendable {
    public let id: String
    public let email: String
    public let name: String
    public let locale: String
    public let marketingOptIn: Bool
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, email, name, locale
        case marketingOptIn = "marketing_opt_in"
        case createdAt = "created_at"
    }
}

/// Settings to their response model.
public enum CustomerSettingTranslator {
    public static func model(_ settings: CustomerSettings) -> CustomerSettingsModel {
        CustomerSettingsModel(
            id: settings.id.uuidString.lowercased(), email: settings.email, name: settings.name, locale: settings.locale,
            marketingOptIn: settings.marketingOptIn, createdAt: Timestamp.rfc3339(settings.createdAt))
    }
}
