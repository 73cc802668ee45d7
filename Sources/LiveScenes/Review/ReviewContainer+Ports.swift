// once: created by scenegen from Specs/Review.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Review scene's hand-written ports.
extension ReviewContainer {
    /// The `store` port: `reviews` and `review_photos` on PostgreSQL.
    static func liveStore(_ resources: AppResources) -> any ReviewStore {
        PostgresReviewStore(database: resources.pool, mediaURL: resources.config.mediaFilesURL, itemCache: resources.itemCache)
    }

    /// The `media` port: the media API at `MEDIA_API_URL`; none when it is unset (reviews work,
    /// photo uploads answer 502).
    static func liveMedia(_ resources: AppResources) -> (any MediaStorage)? {
        resources.config.mediaURL.map { HTTPMediaStorage(baseURL: $0, timeout: resources.config.mediaTimeout) }
    }
}
