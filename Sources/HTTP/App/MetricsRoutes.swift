import Hummingbird
import LiveScenes
import Metrics
import Prometheus
import Synchronization

/// The process's metrics in Prometheus's text format at `GET /metrics` (admin token): request
/// counts and latency histograms per route, method and status (Hummingbird's `MetricsMiddleware`),
/// the PostgreSQL pool's connections, the item cache, and the outcomes of payment and media calls
/// (the gateways' counters).
enum AppMetrics {
    static let registry = PrometheusCollectorRegistry()
    /// The item cache's lookups the counters have been given so far (they count on from there).
    /// One per process, like the registry; each HTTP test's cache starts again from 0.
    private static let itemCacheLookups = Mutex((hits: 0, misses: 0))

    /// Installs the Prometheus backend of swift-metrics, once per process however many
    /// applications are built (the HTTP tests build one per test).
    static let bootstrapped: Void = {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    }()

    static func register(on router: Router<StorefrontContext>, resources: AppResources) {
        let (pool, itemCache) = (resources.pool, resources.itemCache)
        router.group("/metrics").add(middleware: AdminAuthMiddleware(token: resources.config.adminToken)).get { _, _ in
            // The pool is sampled when scraped: the Postgres module stays free of metrics code.
            let statistics = pool.statistics
            registry.makeGauge(descriptor: .poolConnections, labels: [("state", "in_use")]).set(Double(statistics.open - statistics.idle))
            registry.makeGauge(descriptor: .poolConnections, labels: [("state", "idle")]).set(Double(statistics.idle))
            registry.makeGauge(descriptor: .poolWaiting, labels: []).set(Double(statistics.waiting))
            // Read under the lock, so that concurrent scrapes count each lookup once.
            let (cache, hits, misses) = itemCacheLookups.withLock { counted in
                let cache = itemCache.statistics
                defer { counted = (cache.hits, cache.misses) }
                return (cache, since(counted.hits, cache.hits), since(counted.misses, cache.misses))
            }
            registry.makeGauge(descriptor: .itemCacheItems, labels: []).set(Double(cache.items))
            registry.makeGauge(descriptor: .itemCacheTrusted, labels: []).set(Double(cache.isTrusted ? 1 : 0))
            registry.makeCounter(descriptor: .itemCacheLookups, labels: [("outcome", "hit")]).increment(by: Int64(hits))
            registry.makeCounter(descriptor: .itemCacheLookups, labels: [("outcome", "miss")]).increment(by: Int64(misses))
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}

extension AppMetrics {
    /// What a count grew by since the last scrape; a count below it is another cache's (a test's
    /// app), counted from 0.
    fileprivate static func since(_ before: Int, _ now: Int) -> Int {
        now >= before ? now - before : now
    }
}

extension MetricNameDescriptor {
    /// `db_pool_connections{state="in_use"|"idle"}`
    fileprivate static var poolConnections: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "db_pool", unitName: "connections", helpText: "Database connections of the pool, by state.")
    }
    /// `item_cache_items`
    fileprivate static var itemCacheItems: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "item_cache", unitName: "items", helpText: "Items the instance keeps for GET /v1/items/{id}.")
    }
    /// `item_cache_trusted`: 1 while the cache hears PostgreSQL's change notifications, heartbeats
    /// included (it answers only then), 0 otherwise.
    fileprivate static var itemCacheTrusted: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "item_cache_trusted", unitName: "", helpText: "1 while the item cache hears changes and answers, else 0.")
    }
    /// `item_cache_lookups_total{outcome="hit"|"miss"}`
    fileprivate static var itemCacheLookups: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "item_cache_lookups", unitName: "total", helpText: "Items shown by id asked of the cache, by outcome.")
    }
    /// `db_pool_waiting_requests`
    fileprivate static var poolWaiting: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "db_pool_waiting", unitName: "requests", helpText: "Requests waiting for a database connection.")
    }
}
