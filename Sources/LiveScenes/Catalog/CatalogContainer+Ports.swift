// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Catalog scene's hand-written ports.
extension CatalogContainer {
    /// The `store` port: `items` and their variants and images on PostgreSQL, images' URLs under
    /// `MEDIA_PUBLIC_URL`; an item shown by id from the instance's `ItemCache` when it holds it.
    static func liveStore(_ resources: AppResources) -> any ItemStore {
        PostgresItemStore(
            database: resources.pool, mediaURL: resources.config.mediaFilesURL, cache: resources.itemCache,
            catalogScans: resources.catalogScans)
    }

    /// The `images` port: `item_images` on PostgreSQL.
    static func liveImages(_ resources: AppResources) -> any ItemImageStore {
        PostgresItemImageStore(database: resources.pool, mediaURL: resources.config.mediaFilesURL, cache: resources.itemCache)
    }

    /// The `media` port: the media API at `MEDIA_API_URL`; none when it is unset (images cannot
    /// be added; the catalog works).
    static func liveMedia(_ resources: AppResources) -> (any MediaStorage)? {
        resources.config.mediaURL.map { HTTPMediaStorage(baseURL: $0, timeout: resources.config.mediaTimeout) }
    }

    /// The `currency` port: the shop's currency (`SHOP_CURRENCY`), the only one a price may be in.
    static func liveCurrency(_ resources: AppResources) -> Currency {
        resources.config.currency
    }
}
