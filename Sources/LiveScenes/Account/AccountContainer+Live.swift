import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `AccountContainer`.
extension AccountContainer {
    public static func live(_ resources: AppResources) -> AccountContainer {
        AccountContainer(
            customers: PostgresCustomerStore(database: resources.pool),
            sessions: PostgresSessionStore(database: resources.pool),
            hasher: resources.passwordHasher,
            tokens: RandomSessionTokens(),
            system: resources.system)
    }
}
