import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `CustomerSettingContainer`.
extension CustomerSettingContainer {
    public static func live(_ resources: AppResources) -> CustomerSettingContainer {
        CustomerSettingContainer(
            store: PostgresCustomerSettingStore(database: resources.pool), hasher: resources.passwordHasher, tokens: RandomSessionTokens())
    }
}
