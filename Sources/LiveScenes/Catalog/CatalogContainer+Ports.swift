// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Catalog scene's hand-written ports.
extension CatalogContainer {
    /// The `store` port: `items` on PostgreSQL.
    static func liveStore(_ resources: AppResources) -> any ItemStore {
        PostgresItemStore(database: resources.pool)
    }
}
