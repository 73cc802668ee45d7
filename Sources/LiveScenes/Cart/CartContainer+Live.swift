import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `CartContainer`.
extension CartContainer {
    public static func live(_ resources: AppResources) -> CartContainer {
        CartContainer(
            store: PostgresCartStore(database: resources.pool), catalog: PostgresItemStore(database: resources.pool),
            currency: resources.config.currency)
    }
}
