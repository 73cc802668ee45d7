import Gateway
import LiveScenes
import Logging
import Postgres
import ServiceLifecycle
import Synchronization

/// Listens for PostgreSQL's notifications of changed items (Migrations/0027) for as long as the
/// server runs and passes them to the instance's `ItemCache`, on a connection of its own (one
/// more than `DATABASE_POOL_SIZE`). Every second it also sends a heartbeat notification through
/// the pool: a link that died without a word then silences the cache within its `silenceLimit`,
/// long before TCP would notice.
struct ItemCacheListener: Service, CustomStringConvertible {
    let cache: ItemCache
    let listener: PostgresListener
    let pool: PostgresPool
    let logger: Logger

    var description: String { "ItemCacheListener" }

    init(resources: AppResources) {
        cache = resources.itemCache
        pool = resources.pool
        var settings = resources.pool.configuration.connection
        settings.applicationName = "storefront item cache"
        listener = PostgresListener(settings: settings, channel: "item_changed")
        logger = resources.logger
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await listen() }
                group.addTask { await beat() }
            }
        }
    }

    private func listen() async {
        let (cache, logger) = (cache, logger)
        let wasListening = Atomic(false)
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

    private func beat() async {
        while !Task.isCancelled {
            _ = try? await pool.query("SELECT pg_notify('item_changed', $1)", ItemCache.heartbeat)
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
