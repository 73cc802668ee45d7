// once: created by scenegen from Specs/CustomerSetting.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the CustomerSetting scene's hand-written ports.
extension CustomerSettingContainer {
    /// The `store` port: the customers table on PostgreSQL.
    static func liveStore(_ resources: AppResources) -> any CustomerSettingStore {
        PostgresCustomerSettingStore(database: resources.pool)
    }

    /// The `hasher` port: the instance's bounded password hasher, shared with Account.
    static func liveHasher(_ resources: AppResources) -> any PasswordHasher {
        resources.passwordHasher
    }

    /// The `tokens` port: session tokens as Account makes them.
    static func liveTokens(_ resources: AppResources) -> any SessionTokens {
        RandomSessionTokens()
    }
}
