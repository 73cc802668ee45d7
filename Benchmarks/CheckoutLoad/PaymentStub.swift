import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A Stripe-compatible payment provider for benchmarks only: PaymentIntents that a confirm pays at
/// once (every card succeeds), refunds that succeed, each answer after `latency`; a request with an
/// Idempotency-Key seen before gets the same answer again. Tests keep using localstripe: this stub
/// checks nothing.
final class PaymentStub: Sendable {
    struct Intent {
        let id: String
        let amount: Int
        let currency: String
        var status: String

        var json: String {
            #"{"id":"\#(id)","object":"payment_intent","amount":\#(amount),"currency":"\#(currency)","status":"\#(status)","client_secret":"\#(id)_secret","next_action":null}"#
        }
    }

    let latency: Duration
    private let intents = Mutex<[String: Intent]>([:])
    private let replies = Mutex<[String: (HTTPResponse.Status, String)]>([:])

    init(latency: Duration) {
        self.latency = latency
    }

    func run(port: Int) async throws {
        let router = Router()
        router.post("/v1/payment_intents") { request, _ in
            try await self.answer(request) { form in
                let intent = Intent(
                    id: "pi_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                    amount: Int(form["amount"] ?? "") ?? 0, currency: (form["currency"] ?? "jpy").filter(\.isLetter),
                    status: "requires_confirmation")
                self.intents.withLock { $0[intent.id] = intent }
                return (.ok, intent.json)
            }
        }
        for action in ["confirm", "cancel"] {
            router.post("/v1/payment_intents/:id/\(action)") { request, context in
                let id = context.parameters.get("id") ?? ""
                return try await self.answer(request) { _ in
                    let intent = self.intents.withLock { intents -> Intent? in
                        intents[id]?.status = action == "confirm" ? "succeeded" : "canceled"
                        return intents[id]
                    }
                    guard let intent else { return (.notFound, #"{"error":{"message":"no such intent"}}"#) }
                    return (.ok, intent.json)
                }
            }
        }
        router.get("/v1/payment_intents/:id") { _, context in
            try await Task.sleep(for: self.latency)
            let intent = self.intents.withLock { $0[context.parameters.get("id") ?? ""] }
            guard let intent else { return Self.response(.notFound, #"{"error":{"message":"no such intent"}}"#) }
            return Self.response(.ok, intent.json)
        }
        router.get("/v1/refunds") { _, _ in
            try await Task.sleep(for: self.latency)
            return Self.response(.ok, #"{"object":"list","data":[],"has_more":false}"#)
        }
        router.post("/v1/refunds") { request, _ in
            try await self.answer(request) { form in
                let id = "re_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                let amount = Int(form["amount"] ?? "") ?? 0
                let currency = (form["currency"] ?? "jpy").filter(\.isLetter)
                return (.ok, #"{"id":"\#(id)","object":"refund","amount":\#(amount),"currency":"\#(currency)","status":"succeeded"}"#)
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil))
        try await app.runService()
    }

    /// The answer `make` gives the request's form after the latency, or the one given before to
    /// the same Idempotency-Key.
    private func answer(
        _ request: Request, _ make: ([String: String]) -> (HTTPResponse.Status, String)
    ) async throws -> Response {
        let key = request.headers[HTTPField.Name("Idempotency-Key")!]
        if let key, let reply = replies.withLock({ $0[key] }) { return Self.response(reply.0, reply.1) }
        let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
        try await Task.sleep(for: latency)
        let reply = make(Self.form(body))
        if let key { replies.withLock { $0[key] = reply } }
        return Self.response(reply.0, reply.1)
    }

    private static func form(_ body: String) -> [String: String] {
        var form: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { form[parts[0]] = parts[1] }
        }
        return form
    }

    private static func response(_ status: HTTPResponse.Status, _ json: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
