import Hummingbird
import LiveScenes
import Metrics
import Prometheus
import Scenes

/// The process's metrics in Prometheus's text format at `GET /metrics` (admin token): request
/// counts and latency histograms per route, method and status (Hummingbird's `MetricsMiddleware`),
/// the PostgreSQL pool's connections, the item cache, and the outcomes of payment and media calls
/// (the gateways' counters).
enum AppMetrics {
    static let registry = PrometheusCollectorRegistry()

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
            let cache = itemCache.statistics
            registry.makeGauge(descriptor: .itemCacheItems, labels: []).set(Double(cache.items))
            registry.makeGauge(descriptor: .itemCacheListening, labels: []).set(Double(cache.isListening ? 1 : 0))
            registry.makeGauge(descriptor: .itemCacheLookups, labels: [("outcome", "hit")]).set(Double(cache.hits))
            registry.makeGauge(descriptor: .itemCacheLookups, labels: [("outcome", "miss")]).set(Double(cache.misses))
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
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
    /// `item_cache_listening`: 1 while the cache hears PostgreSQL's change notifications (it
    /// answers only then), 0 otherwise.
    fileprivate static var itemCacheListening: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "item_cache_listening", helpText: "1 while the item cache hears changes and answers, else 0.")
    }
    /// `item_cache_lookups{outcome="hit"|"miss"}`, counted since the process started.
    fileprivate static var itemCacheLookups: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "item_cache_lookups", helpText: "Items by id asked of the cache since start, by outcome.")
    }
    /// `db_pool_waiting_requests`
    fileprivate static var poolWaiting: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "db_pool_waiting", unitName: "requests", helpText: "Requests waiting for a database connection.")
    }
}
