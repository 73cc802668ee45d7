import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `PhotoListContainer`.
extension PhotoListContainer {
    public static func live(_ resources: AppResources) -> PhotoListContainer {
        PhotoListContainer(store: PostgresPhotoListStore(database: resources.pool))
    }
}
