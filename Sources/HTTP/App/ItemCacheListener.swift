import Gateway
import LiveScenes
import Logging
import Postgres
import ServiceLifecycle

/// Listens for PostgreSQL's notifications of changed items (Migrations/0027) for as long as the
/// server runs and makes the instance's `ItemCache` forget those items. The cache answers only
/// while this listens: from a broken link until it listens again, it is empty and keeps nothing.
struct ItemCacheListener: Service {
    let cache: ItemCache
    let listener: PostgresListener
    let logger: Logger

    init(resources: AppResources) {
        cache = resources.itemCache
        var settings = resources.pool.configuration.connection
        settings.applicationName = "storefront item cache"
        listener = PostgresListener(settings: settings, channel: "item_changed")
        logger = resources.logger
    }

    func run() async throws {
        let (cache, logger) = (cache, logger)
        await cancelWhenGracefulShutdown {
            await listener.run { event in
                switch event {
                case .listening:
                    cache.setListening(true)
                    logger.debug("item cache: listening for changed items")
                case .notification(let payload):
                    cache.forget(notification: payload)
                case .lost:
                    cache.setListening(false)
                    logger.debug("item cache: off until PostgreSQL's notifications are heard again")
                }
            }
        }
    }
}
