// once: created by scenegen from Specs/PhotoList.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the PhotoList scene's hand-written ports.
extension PhotoListContainer {
    /// The `store` port: `review_photos` on PostgreSQL, URLs under `MEDIA_PUBLIC_URL`.
    static func liveStore(_ resources: AppResources) -> any ItemPhotoStore {
        PostgresItemPhotoStore(database: resources.pool, mediaURL: resources.config.mediaFilesURL)
    }
}
