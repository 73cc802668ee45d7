import Hummingbird
import HummingbirdCore
import LiveScenes
import Logging
import NIOCore
import Scenes
import ServiceLifecycle
import UseCase

/// Builds the whole application: the router and the services beside it. `serve` runs it; the HTTP
/// tests drive it in-process.
/// - Throws: `APIDocument.LoadError` when the API document (a resource of this module) is missing
///   or corrupt: the service does not start without it.
public func buildApplication(_ resources: AppResources) throws -> some ApplicationProtocol {
    let uploads = UploadReceiver(resources)
    let router = try buildRouter(resources, uploads: uploads)
    let orders = OrderContainer.live(resources)
    var services: [any Service] = [ResourcesService(resources: resources)]
    if resources.config.listensForItemChanges { services.append(ItemCacheListener(resources: resources)) }
    if let reconciler = orders.reconciler {
        // Over orders older than its minimum age (see `ReconcileUseCase`).
        services.append(
            PeriodicService(name: "reconciled pending orders", interval: .seconds(30), logger: resources.logger) {
                let report = try await reconciler.reconcile()
                guard report != ReconcileUseCase.Report() else { return [:] }
                return [
                    "paid": "\(report.paid)", "failed": "\(report.failed)", "refunded": "\(report.refunded)",
                    "refunds_failed": "\(report.refundsFailed)", "still_pending": "\(report.stillPending)",
                ]
            })
    }
    let devices = DeviceContainer.live(resources).useCase
    if let pushes = devices.pushSender {
        // Every instance runs one; claims keep them off each other's pushes.
        services.append(
            PeriodicService(name: "sent pushes", interval: .seconds(2), logger: resources.logger) {
                let report = try await pushes.sendDue()
                guard report != PushSender.Report() else { return [:] }
                return [
                    "sent": "\(report.sent)", "retried": "\(report.retried)", "gave_up": "\(report.gaveUp)",
                    "unregistered": "\(report.unregistered)", "unrecorded": "\(report.unrecorded)",
                ]
            })
    }
    let accounts = AccountContainer.live(resources).useCase
    let throttle = ThrottleContainer.live(resources).throttle
    let webhooks = PaymentWebhookContainer.live(resources).useCase
    if orders.reconciler != nil {
        // Events whose handling failed: answered at once, so the provider never sends them again.
        // Every 5 minutes: one that keeps failing costs a provider read a pass on each instance.
        services.append(
            PeriodicService(name: "handled left-over payment events", interval: .seconds(300), logger: resources.logger) {
                let (handled, failed) = try await webhooks.handleLeftOverEvents()
                return handled + failed == 0 ? [:] : ["handled": "\(handled)", "failed_again": "\(failed)"]
            })
    }
    // Expired sessions, rate-limit counts that no longer limit anything, settled pushes,
    // abandoned resumable uploads, the provider's events past their retention.
    services.append(
        PeriodicService(name: "purged expired records", interval: resources.config.purgeInterval, logger: resources.logger) {
            let sessions = try await accounts.purgeExpiredSessions()
            let limits = try await throttle.purge()
            let pushes = try await devices.purgePushes()
            let resumable = try await uploads.resumableUploads.purgeExpired()
            let events = try await webhooks.purgeEvents()
            guard sessions + limits + pushes + resumable + events > 0 else { return [:] }
            return [
                "sessions": "\(sessions)", "rate_limits": "\(limits)", "pushes": "\(pushes)", "uploads": "\(resumable)",
                "payment_events": "\(events)",
            ]
        })

    let config = resources.config
    let logger = resources.logger
    return Application(
        router: router,
        server: HTTPServerBuilder { responder in
            StorefrontHTTP1Channel(
                base: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: connectionHandlers(config, targets: uploads.targets, logger: logger),
                        idleTimeout: .init(config.httpIdleTimeout))))
        },
        configuration: .init(
            address: .hostname(config.host, port: config.port), serverName: "storefront",
            availableConnectionsDelegate: MaximumAvailableConnections(config.httpMaxConnections, logger: logger)),
        services: services,
        logger: logger
    )
}

/// The handlers each connection gets after HTTP/1 decoding: a problem for a request head that
/// cannot be read (first, so it sees every answer written), the end of a connection whose request
/// was answered before its body ended or asked to switch protocols, the deadline on a whole
/// request, and the interim answer of a resumable upload's first request (unless turned off).
private func connectionHandlers(_ config: AppConfig, targets: ResumableUploadTargets, logger: Logger) -> [any RemovableChannelHandler] {
    [
        UnreadableRequestAnswer(),
        EarlyAnswerClose(),
        UpgradeRequestClose(),
        RequestReadDeadline(deadline: .init(config.httpRequestTimeout), logger: logger),
        UploadResumptionAnnouncer(targets: targets, interim: config.resumableUploadInterimResponses),
    ]
}

/// Every route of every scene over their live containers, behind the request-id and problem
/// middleware.
/// - Parameter scenes: registers every scene's routes, each scene in one place that lists its
///   full paths: the registry scenegen writes from `Specs/` (hand-written and generated scenes
///   alike), or the generator's matrix of specs in its tests.
/// - Parameter uploads: reads every route's uploads; the application's channel handlers learn
///   from it which routes take resumable ones.
/// - Throws: `APIDocument.LoadError` when the API document cannot be loaded.
func buildRouter(
    _ resources: AppResources, uploads: UploadReceiver? = nil,
    scenes: (SceneRouters, AppResources) throws -> Void = SceneRegistry.register(on:resources:)
) throws -> Router<StorefrontContext> {
    _ = AppMetrics.bootstrapped
    let document = try APIDocument.bundled.get()
    // HEAD is answered wherever GET is (RFC 9110 §9.1: a general-purpose server supports both),
    // as GET would answer it, without the body.
    let router = Router(context: StorefrontContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestIDMiddleware())
    // Outside the problem middleware, so problems answered to credentials are marked too.
    router.add(middleware: PrivateResponseMiddleware())
    // Outside the problem middleware, so it counts the status the client got.
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ProblemMiddleware(allowedMethods: document.allowedMethods))
    router.add(middleware: QueryCheckMiddleware())
    router.add(middleware: ClientAddressMiddleware(hops: resources.config.trustedProxyHops))

    HealthRoutes.register(on: router, resources: resources)
    AppLinkRoutes.register(on: router, resources: resources)
    let accounts = AccountContainer.live(resources).useCase
    let routers = SceneRouters(
        anyone: router.group(),
        customer: router.group().add(middleware: CustomerAuthMiddleware(accounts: accounts)),
        admin: router.group().add(middleware: AdminAuthMiddleware(token: resources.config.adminToken)),
        uploads: uploads ?? UploadReceiver(resources))
    try scenes(routers, resources)
    ResumableUploadRoutes.register(on: routers.customer, uploads: routers.uploads)
    AppMetrics.register(on: router, resources: resources)
    router.get("/openapi.json") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: document.json))
    }
    return router
}

/// Closes the pool after the server has drained: the application's service group stops its
/// services in reverse order, so this runs once no request can use the pool any more.
struct ResourcesService: Service {
    let resources: AppResources

    func run() async throws {
        try? await gracefulShutdown()
        await resources.pool.shutdown()
        resources.logger.info("server drained; PostgreSQL pool closed")
    }
}
