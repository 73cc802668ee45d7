import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// Pushes through the APNs provider API: HTTP/2 over TLS (AsyncHTTPClient negotiates it by
/// ALPN; an answer over HTTP/1 is not APNs and is retried), a provider token (`APNsProviderToken`),
/// `apns-topic`, `apns-push-type: alert`, `apns-collapse-id` per order event, `apns-id` the push's
/// own id. What APNs answers maps to `PushResult`: 200 sent; 410 a token gone; 403
/// `ExpiredProviderToken` a new token and a retry; any other 403 (the shop's key or team), 400
/// `IdleTimeout`, 429 and 5xx retried; any other 4xx (`BadDeviceToken` included: a token of
/// the other environment is the shop's mistake, not the phone's) refused for good.
public struct APNsPushProvider: PushProvider {
    let settings: APNsSettings
    let token: APNsProviderToken
    let client: HTTPClient
    let timeout: TimeAmount
    let now: @Sendable () -> Date

    public init(settings: APNsSettings, timeout: Duration = .seconds(10), now: @escaping @Sendable () -> Date = Date.init) {
        self.settings = settings
        self.token = APNsProviderToken(settings: settings)
        self.client = Self.client(trusting: settings.trustRootsFile)
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        self.now = now
    }

    public func send(_ push: Push) async -> PushResult {
        let jwt: String
        do {
            jwt = try token.jwt(at: now())
        } catch {
            return .retry(reason: "the provider token could not be signed: \(error)")
        }
        var request = HTTPClientRequest(url: "\(settings.baseURL)/3/device/\(push.deviceToken)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: settings.topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: "10")
        request.headers.add(name: "apns-expiration", value: "\(Int(now().timeIntervalSince1970) + 86_400)")
        request.headers.add(name: "apns-collapse-id", value: push.collapseID)
        request.headers.add(name: "apns-id", value: push.id.lowercasedText)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: Self.payload(push)))
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            guard response.version.major == 2 else { return .retry(reason: "the provider answered over HTTP/\(response.version.major)") }
            return result(status: Int(response.status.code), reason: Self.reason(in: body), jwt: jwt)
        } catch {
            return .retry(reason: "APNs did not answer: \(error)")
        }
    }

    func result(status: Int, reason: String?, jwt: String) -> PushResult {
        let said = "\(status) \(reason ?? "")"
        switch (status, reason) {
        case (200, _): return .sent
        case (410, _): return .unregistered
        case (403, "ExpiredProviderToken"):
            token.expire(jwt)
            return .retry(reason: said)
        // The shop's key, team or topic is wrong: the pushes wait until it is fixed.
        case (403, _), (400, "IdleTimeout"), (429, _), (500..., _): return .retry(reason: said)
        default: return .rejected(reason: said)
        }
    }

    /// The alert, the order it is about, and where the app opens it (the order's universal link).
    static func payload(_ push: Push) -> Data {
        let order = push.orderID.lowercasedText
        let object: [String: Any] = [
            "aps": ["alert": ["title": push.alert.title, "body": push.alert.body], "sound": "default", "thread-id": "order-\(order)"],
            "order_id": order, "event": push.event.rawValue, "path": "/orders/\(order)",
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// APNs explains a refusal as `{"reason": "BadDeviceToken"}`.
    static func reason(in body: ByteBuffer) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])?["reason"] as? String
    }

    /// One client per set of trust roots for the life of the process, as `HTTPClient.shared` is
    /// for the system's: its HTTP/2 connections to APNs stay open between pushes, as Apple asks.
    static func client(trusting rootsFile: String?) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[rootsFile ?? ""] { return client }
            var tls = TLSConfiguration.makeClientConfiguration()
            if let rootsFile { tls.trustRoots = .file(rootsFile) }
            var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
            configuration.httpVersion = .automatic
            configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[rootsFile ?? ""] = client
            return client
        }
    }

    private static let clients = Mutex<[String: HTTPClient]>([:])
}
