import Crypto
import Foundation
import FoundationNetworking
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// The provider's webhooks against the whole app, real PostgreSQL and localstripe: a verified
/// event settles the order from the provider's own state (not the event's word), once however
/// often it comes; a forged or stale one changes nothing. And localstripe's real webhooks settle
/// a 3-D Secure checkout without the app ever calling refresh.
@Suite("Payment webhooks over HTTP")
struct PaymentWebhookHTTPTests {
    static let secret = "whsec_test_webhooks_0123456789"

    static func signed(_ body: String, at time: Int64 = Int64(Date().timeIntervalSince1970), secret: String = secret) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("\(time).\(body)".utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return "t=\(time),v1=" + code.map { String(format: "%02x", $0) }.joined()
    }

    static func event(_ id: String, _ type: String, intent: String) -> String {
        #"{"id":"\#(id)","type":"\#(type)","data":{"object":{"id":"\#(intent)","object":"payment_intent","status":"succeeded"}}}"#
    }

    static func deliver(_ client: any TestClientProtocol, _ body: String, signature: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let signature { headers[HTTPField.Name("Stripe-Signature")!] = signature }
        return try await client.execute(uri: "/v1/payments/webhook", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func status(_ db: TestDatabase, order: String) async throws -> String {
        try await db.pool.query("SELECT status FROM orders WHERE id = $1::uuid", order).rows[0].decode("status")
    }

    /// Waits (at most 20 s) until the event was acted on: after that, what it changed is seen.
    static func handled(_ db: TestDatabase, event: String) async throws -> Bool {
        let end = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < end {
            let row = try await db.pool.query("SELECT handled_at IS NOT NULL AS handled FROM payment_events WHERE id = $1", event).rows
                .first
            if try row?.decode("handled", as: Bool.self) == true { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits (at most `seconds`) for the order to reach `status`.
    /// Polls for the order's status; the bound only decides how long a failure takes to show
    /// (the whole suite shares two cores).
    static func eventually(_ db: TestDatabase, order: String, is status: String, within seconds: Double = 20) async throws -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end {
            if try await Self.status(db, order: order) == status { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func aVerifiedEventSettlesFromTheProviderOnceAForgedOneChangesNothing() async throws {
        try await withApp(configure: { $0.paymentWebhookSecret = Self.secret }) { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (_, order) = try await ThreeDSecureHTTPTests.checkoutNeedingAction(client, db, mug: mug)
            let id = try #require(order["id"] as? String)
            let intent = try #require(order["payment_intent_id"] as? String)
            let eventID = "evt_\(UUID().uuidString.prefix(8))"
            let body = Self.event(eventID, "payment_intent.succeeded", intent: intent)

            // Forged, stale, or signed with another secret: 400, nothing recorded or changed.
            for signature in [
                nil, "t=1,v1=00", Self.signed(body, secret: "whsec_attacker_000000000"),
                Self.signed(body, at: Int64(Date().timeIntervalSince1970) - 600),
            ] {
                try await Self.deliver(client, body, signature: signature).expectProblem(400)
            }
            #expect(try await db.pool.query("SELECT id FROM payment_events").rows.isEmpty)

            // Signed, but the provider still waits on the customer: the event's word is not taken.
            let early = try await Self.deliver(client, body, signature: Self.signed(body))
            #expect(early.status == .ok)
            #expect(try await Self.handled(db, event: eventID), "acted on, in the background")
            #expect(try await Self.status(db, order: id) == "requires_action")

            // The customer authenticates; the next event settles the order, a redelivery is ignored.
            try await ThreeDSecureHTTPTests.authenticate(order, success: true)
            let next = Self.event("evt_\(UUID().uuidString.prefix(8))", "payment_intent.succeeded", intent: intent)
            #expect(try await Self.deliver(client, next, signature: Self.signed(next)).json["duplicate"] as? Bool == false)
            #expect(try await Self.eventually(db, order: id, is: "paid"))
            #expect(try await Self.deliver(client, next, signature: Self.signed(next)).json["duplicate"] as? Bool == true)
            #expect(try await CheckoutHTTPTests.stock(db, mug) == 3)
            let events: Int = try await db.pool.query("SELECT count(*)::int AS n FROM payment_events").rows[0].decode("n")
            #expect(events == 2)
        }
    }

    @Test func withoutASecretTheEndpointIsOff() async throws {
        try await withApp { client, _ in
            let body = Self.event("evt_off", "payment_intent.succeeded", intent: "pi_x")
            try await Self.deliver(client, body, signature: Self.signed(body)).expectProblem(404)
        }
    }

    /// localstripe signs and sends its events about a second after the change, as Stripe does.
    @Test func localstripesOwnWebhookSettlesA3DSecureCheckout() async throws {
        try await withApp(testing: .live, configure: { $0.paymentWebhookSecret = Self.secret }) { client, db in
            let port = try #require(client.port)
            // One id for every run: localstripe cannot forget an endpoint, only replace it, and
            // sends every later event of the run to each one it knows.
            try await ThreeDSecureHTTPTests.provider(
                "/_config/webhooks/storefront-tests",
                ["url": "http://127.0.0.1:\(port)/v1/payments/webhook", "secret": Self.secret])
            let mug = try await CheckoutHTTPTests.item(db, stock: 5)
            let (_, order) = try await ThreeDSecureHTTPTests.checkoutNeedingAction(client, db, mug: mug)
            let id = try #require(order["id"] as? String)
            try await ThreeDSecureHTTPTests.authenticate(order, success: true)
            #expect(try await Self.eventually(db, order: id, is: "paid"), "no refresh: the webhook settled it")
        }
    }
}
