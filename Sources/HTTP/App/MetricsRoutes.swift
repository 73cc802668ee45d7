import Hummingbird
import LiveScenes
import Metrics
import Prometheus
import Scenes

/// The process's metrics in Prometheus's text format at `GET /metrics` (admin token): request
/// counts and latency histograms per route, method and status (Hummingbird's `MetricsMiddleware`),
/// the PostgreSQL pool's connections, and the outcomes of payment and media calls (the gateways'
/// counters).
enum AppMetrics {
    static let registry = PrometheusCollectorRegistry()

    /// Installs the Prometheus backend of swift-metrics, once per process however many
    /// applications are built (the HTTP tests build one per test).
    static let bootstrapped: Void = {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    }()

    static func register(on router: Router<StorefrontContext>, resources: AppResources) {
        let pool = resources.pool
        router.group("/metrics").add(middleware: AdminAuthMiddleware(token: resources.config.adminToken)).get { _, _ in
            // The pool is sampled when scraped: the Postgres module stays free of metrics code.
            let statistics = pool.statistics
            registry.makeGauge(descriptor: .poolConnections, labels: [("state", "in_use")]).set(Double(statistics.open - statistics.idle))
            registry.makeGauge(descriptor: .poolConnections, labels: [("state", "idle")]).set(Double(statistics.idle))
            registry.makeGauge(descriptor: .poolWaiting, labels: []).set(Double(statistics.waiting))
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
    /// `db_pool_waiting_requests`
    fileprivate static var poolWaiting: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "db_pool_waiting", unitName: "requests", helpText: "Requests waiting for a database connection.")
    }
}
