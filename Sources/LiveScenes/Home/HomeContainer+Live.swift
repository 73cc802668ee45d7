import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `HomeContainer`.
extension HomeContainer {
    public static func live(_ resources: AppResources) -> HomeContainer {
        HomeContainer(store: PostgresHomeStore(database: resources.pool))
    }
}
