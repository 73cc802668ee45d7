import Gateway
import LiveScenes
import Logging
import Postgres
import ServiceLifecycle
import Synchronization

/// Listens for PostgreSQL's notifications of changed items (Migrations/0027, 0028) for as long as the
/// server runs and passes them to the instance's `ItemCache`, on a connection of its own (one
/// more than `DATABASE_POOL_SIZE`). On that connection it also notifies the cache's heartbeat
/// every second, so the cache knows how far behind the notifications run (`ItemCache`); none
/// while the database or the role sets `storefront.item_notifications` off, for itself or for this
/// database, as then no change would be heard either (read from the catalog, since this
/// long-lived session keeps the value it started with; any such setting stops the heartbeats,
/// the safe side where several disagree).
/// The session has no statement or lock timeout: a heartbeat that waits for the notification lock
/// behind busy commits is late, not an error that would empty the cache.
struct ItemCacheListener: Service, CustomStringConvertible {
    let cache: ItemCache
    let listener: PostgresListener
    let logger: Logger

    var description: String { "ItemCacheListener" }

    init(resources: AppResources) {
        let cache = resources.itemCache
        var settings = resources.pool.configuration.connection
        settings.applicationName = "storefront item cache"
        settings.statementTimeoutMilliseconds = nil
        settings.lockTimeoutMilliseconds = nil
        listener = PostgresListener(settings: settings, channel: "item_changed") {
            (
                """
                SELECT pg_notify('item_changed', $1) WHERE NOT EXISTS (
                    SELECT 1 FROM pg_db_role_setting s
                    WHERE s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
                      AND s.setrole IN (0, (SELECT oid FROM pg_roles WHERE rolname = current_user))
                      AND 'storefront.item_notifications=off' = ANY (s.setconfig))
                """,
                [cache.heartbeat()]
            )
        }
        self.cache = cache
        logger = resources.logger
    }

    func run() async throws {
        let (cache, logger) = (cache, logger)
        // True at first, so that failing to listen at all is said once too.
        let wasListening = Atomic(true)
        await cancelWhenGracefulShutdown {
            await listener.run { event in
                switch event {
                case .listening:
                    cache.setListening(true)
                    wasListening.store(true, ordering: .relaxed)
                    logger.info("item cache on: listening for changed items")
                case .notification(let payload):
                    cache.hear(payload)
                case .lost(let reason):
                    cache.setListening(false)
                    // Once per outage, not once per attempt to listen again.
                    if wasListening.exchange(false, ordering: .relaxed), let reason {
                        logger.warning("item cache off until PostgreSQL's notifications are heard again", metadata: ["error": "\(reason)"])
                    }
                }
            }
        }
    }
}
