// once: created by scenegen from Specs/Home.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Home scene's hand-written ports.
extension HomeContainer {
    /// The `store` port: the catalog's tables on PostgreSQL.
    static func liveStore(_ resources: AppResources) -> any HomeStore {
        PostgresHomeStore(database: resources.pool, mediaURL: resources.config.mediaFilesURL)
    }
}
