import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `CatalogContainer`.
extension CatalogContainer {
    public static func live(_ resources: AppResources) -> CatalogContainer {
        CatalogContainer(store: PostgresItemStore(database: resources.pool), system: resources.system)
    }
}
