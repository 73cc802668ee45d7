import Foundation
import HTTP
import HTTPTestSupport
import Hummingbird
import HummingbirdTesting
import LiveScenes
import Logging
import NIOCore
import Postgres
import Scenes
import TestSupport
import Testing

/// Checkout against a provider that declines with Stripe's fraud decline codes, which localstripe
/// cannot send: a fake speaking just enough of the PaymentIntents API.
@Suite("Decline codes over HTTP")
struct DeclineCodeHTTPTests {
    /// Creates `pi_<code>` for `pm_<code>`; confirming it is declined with decline code `<code>`.
    static func fakeProvider() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/v1/payment_intents") { request, _ in
            let form = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let method = URLComponents(string: "?" + form)?.queryItems?.first { $0.name == "payment_method" }?.value ?? "pm_x"
            let id = "pi_" + method.dropFirst(3)
            return json(200, #"{"id": "\#(id)", "status": "requires_confirmation", "amount": 1200, "currency": "jpy"}"#)
        }
        router.post("/v1/payment_intents/:id/confirm") { _, context in
            let code = try context.parameters.require("id").dropFirst(3)
            return json(
                402, #"{"error": {"type": "card_error", "code": "card_declined", "decline_code": "\#(code)", "message": "declined"}}"#)
        }
        return router
    }

    static func json(_ status: Int, _ body: String) -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    @Test func fraudCodesAreAnsweredAsAGenericDeclineAndOthersAsTheyAre() async throws {
        let provider = Application(router: Self.fakeProvider(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await provider.test(.live) { fake in
            let port = try #require(fake.port)
            try await TestDatabase.with { db in
                var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
                config.payment = ("http://127.0.0.1:\(port)", "sk_test_storefront")
                let resources = AppResources(config: config, pool: db.pool, logger: Logger(label: "test"))
                try await buildApplication(resources).test(.router) { client in
                    let mug = try await CheckoutHTTPTests.item(db, stock: 50)
                    for (code, shown) in [
                        ("stolen_card", "generic_decline"), ("lost_card", "generic_decline"), ("fraudulent", "generic_decline"),
                        ("insufficient_funds", "insufficient_funds"),
                    ] {
                        let (_, token) = try await signedInCustomer(db)
                        try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
                        for attempt in ["first", "replayed"] {
                            let declined = try await CheckoutHTTPTests.checkout(client, token, key: "k", method: "pm_\(code)")
                            let problem = try declined.expectProblem(402)
                            #expect(problem["decline_code"] as? String == shown, "\(code), \(attempt)")
                            #expect(String(buffer: declined.body).contains(code) == (code == shown), "\(code), \(attempt)")
                        }
                    }
                }
            }
        }
    }
}
