import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdHTTP2
import NIOCore
import NIOSSL
import Synchronization

/// A stand-in for the APNs provider API on loopback: HTTP/2 over TLS with the self-signed
/// certificate in `Tests/Fixtures/apns` (for 127.0.0.1), checking every request's provider
/// token (ES256 against the team key's public half) and recording what it was sent. A token's
/// answers can be scripted (`script`); unscripted ones get 200.
final class FakeAPNs: Sendable {
    struct Received: Sendable {
        let token: String
        let headers: [String: String]
        /// The JSON body as sent.
        let payload: Data
        /// The provider token's header and claims, when the team key signed it.
        let jwt: ProviderToken?

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] ?? [:] }
    }

    struct ProviderToken: Sendable {
        let algorithm: String?
        let keyID: String?
        let issuer: String?
        let issuedAt: Int?
    }

    let teamKey = P256.Signing.PrivateKey()
    private let received = Mutex<[Received]>([])
    private let scripted = Mutex<[String: [(status: Int, reason: String?)]]>([:])
    private let held = Mutex<Bool>(false)

    /// From now on, requests are recorded and then kept waiting for their answer until `release`.
    func hold() { held.withLock { $0 = true } }
    func release() { held.withLock { $0 = false } }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apns")
    static var certificateFile: String { fixtures.appendingPathComponent("cert.pem").path }

    struct DidNotStart: Error {}

    var requests: [Received] { received.withLock { $0 } }

    /// The next answers to pushes to `token`, in order.
    func script(_ token: String, _ answers: [(status: Int, reason: String?)]) {
        scripted.withLock { $0[token, default: []] += answers }
    }

    /// Runs the server for the length of `body`, which gets its base URL.
    func run<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(Self.certificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: Self.fixtures.appendingPathComponent("key.pem").path, format: .pem)))
        let router = Router()
        router.post("/3/device/:token") { request, context in
            try await self.answer(request, token: context.parameters.get("token") ?? "")
        }
        let (ports, port) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.yield(channel.localAddress?.port ?? 0)
                port.finish()
            })
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                // A server that never binds ends the wait for its port instead of hanging it.
                defer { port.finish() }
                try await app.runService()
                return nil
            }
            var bound = 0
            for await value in ports { bound = value }
            guard bound != 0 else {
                _ = try await group.next()  // the server's own error, when it has one
                throw DidNotStart()
            }
            let result = try await body("https://127.0.0.1:\(bound)")
            group.cancelAll()
            return result
        }
    }

    private func answer(_ request: Request, token: String) async throws -> Response {
        let body = try await request.body.collect(upTo: 8192)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let jwt = verified(headers["authorization"])
        received.withLock { $0.append(Received(token: token, headers: headers, payload: Data(body.readableBytesView), jwt: jwt)) }
        while held.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        guard jwt != nil else { return Self.refusal(403, "InvalidProviderToken") }
        let next = scripted.withLock { answers -> (status: Int, reason: String?)? in
            guard answers[token]?.isEmpty == false else { return nil }
            return answers[token]!.removeFirst()
        }
        guard let next, next.status != 200 else {
            return Response(status: .ok, headers: [HTTPField.Name("apns-id")!: headers["apns-id"] ?? ""])
        }
        return Self.refusal(next.status, next.reason ?? "")
    }

    static func refusal(_ status: Int, _ reason: String) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"reason":"\#(reason)"}"#)))
    }

    /// The provider token of `authorization` (`bearer <JWT>`) when the team key signed it.
    private func verified(_ authorization: String?) -> ProviderToken? {
        guard let authorization, authorization.hasPrefix("bearer ") else { return nil }
        let parts = authorization.dropFirst("bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.decoded(parts[0]), let claims = Self.decoded(parts[1]),
            let signatureBytes = Self.bytes(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            teamKey.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return nil }
        return ProviderToken(
            algorithm: header["alg"] as? String, keyID: header["kid"] as? String, issuer: claims["iss"] as? String,
            issuedAt: claims["iat"] as? Int)
    }

    private static func decoded(_ part: Substring) -> [String: Any]? {
        bytes(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// base64url without padding.
    private static func bytes(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }
}
