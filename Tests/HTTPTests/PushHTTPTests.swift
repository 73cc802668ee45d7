import Domain
import Foundation
import Gateway
import HTTPTestSupport
import HummingbirdTesting
import LiveScenes
import Postgres
import Synchronization
import TestSupport
import Testing
import UseCase

/// Devices and pushes end to end: the app registers its token; an order's payment, first
/// shipment and delivery each queue one push per device in the order change's transaction; the
/// worker sends them to a fake APNs over HTTP/2 and TLS with a provider token signed by the
/// team's key; APNs' refusals retire tokens, back off or give up; claims keep two workers (or a
/// dead one) from sending a push twice.
@Suite("Devices and push notifications")
struct PushHTTPTests {
    static func token(_ n: Int) -> String { String(repeating: String(format: "%02x", n), count: 32) }

    static func register(_ client: any TestClientProtocol, _ token: String, _ session: String, locale: String = "ja-JP") async throws
        -> TestResponse
    {
        try await client.send(.put, "/v1/me/devices/\(token)", json: #"{"platform":"ios","locale":"\#(locale)"}"#, token: session)
    }

    static func settings(_ fake: FakeAPNs, _ url: String) -> APNsSettings {
        APNsSettings(
            baseURL: url, teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: fake.teamKey.pemRepresentation,
            topic: "jp.example.shop", trustRootsFile: FakeAPNs.certificateFile)!
    }

    @Test func aDeviceIsRegisteredUpdatedMovedAndRemoved() async throws {
        try await withApp { client, db in
            let (firstID, first) = try await signedInCustomer(db)
            let (_, second) = try await signedInCustomer(db)
            let token = Self.token(0xAB)
            let created = try await Self.register(client, token.uppercased(), first)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            #expect(try created.json["token"] as? String == token && created.json["locale"] as? String == "ja-JP")
            #expect(try await Self.register(client, token, first, locale: "en-US").status == .ok)
            // The phone signs in to another account: the token is that account's now.
            #expect(try await Self.register(client, token, second).status == .created)
            try await client.send(.delete, "/v1/me/devices/\(token)", token: first).expectProblem(404)
            #expect(try await client.send(.delete, "/v1/me/devices/\(token)", token: second).status == .noContent)
            try await client.send(.delete, "/v1/me/devices/\(token)", token: second).expectProblem(404)
            for bad in ["zz" + token.dropFirst(2), String(token.dropLast()), "abcd"] {
                let refused = try await Self.register(client, String(bad), first)
                _ = try refused.expectProblem(422)
                #expect(refused.fieldNames == ["token"], "\(bad)")
            }
            try await client.send(.put, "/v1/me/devices/\(token)", json: #"{"platform":"android","locale":"ja"}"#, token: first)
                .expectProblem(422)
            try await client.send(.put, "/v1/me/devices/\(token)", json: #"{"platform":"ios","locale":"ja"}"#).expectProblem(401)

            // A customer keeps the 10 devices registered last.
            for n in 0..<12 { #expect(try await Self.register(client, Self.token(0x20 + n), first).status == .created) }
            let kept = try await db.pool.query("SELECT token FROM devices WHERE customer_id = $1 ORDER BY token", firstID).rows.map {
                try $0.decode("token", as: String.self)
            }
            #expect(kept == (2..<12).map { Self.token(0x20 + $0) })
        }
    }

    /// Only a customer's payment queues `order_paid` (not a failed refund's way back to paid),
    /// and only the first shipment `order_shipped`; a phone that moves to another customer
    /// gets none of what waited for the one before.
    @Test func theTriggerQueuesTheFirstPaymentAndShipmentAndAMovedPhoneGetsNothingOld() async throws {
        try await withApp { client, db in
            let (order, mug, pen, session, _) = try await FulfilmentHTTPTests.paidOrder(client, db)
            let id = UUID(uuidString: order)!
            let phone = Self.token(0x42)
            #expect(try await Self.register(client, phone, session).status == .created)
            func queued() async throws -> [String] {
                try await db.pool.query("SELECT event FROM push_notifications WHERE order_id = $1 ORDER BY created_at, event", id).rows.map
                {
                    try $0.decode("event", as: String.self)
                }
            }
            try await db.pool.query("UPDATE orders SET status = 'refund_pending' WHERE id = $1", id)
            try await db.pool.query("UPDATE orders SET status = 'paid' WHERE id = $1", id)
            #expect(try await queued() == [])
            _ = try await FulfilmentHTTPTests.ship(client, order, #"[{"variant_id":"\#(mug)","quantity":1}]"#)
            _ = try await FulfilmentHTTPTests.ship(
                client, order, #"[{"variant_id":"\#(mug)","quantity":1},{"variant_id":"\#(pen)","quantity":1}]"#)
            #expect(try await queued() == ["order_shipped"])

            let (_, stranger) = try await signedInCustomer(db)
            #expect(try await Self.register(client, phone, stranger).status == .created)
            let left = try await db.pool.query(
                "SELECT count(*)::int AS n FROM push_notifications WHERE device_token = $1 AND gave_up_at IS NULL", phone
            ).rows[0].decode("n", as: Int.self)
            #expect(left == 0)
        }
    }

    /// The service's own worker, as it runs in production: paid, shipped, delivered, each pushed
    /// once to the customer's phone, in Japanese for a Japanese locale, nothing more.
    @Test func anOrdersPaymentShipmentAndDeliveryArePushedOnceEach() async throws {
        let fake = FakeAPNs()
        try await fake.run { url in
            try await withApp(configure: { $0.apns = Self.settings(fake, url) }) { client, db in
                let (customer, session) = try await signedInCustomer(db)
                let phone = Self.token(0x01)
                #expect(try await Self.register(client, phone, session).status == .created)
                let item = try await TestRows.insertItem(db, name: "Kettle", price: 5000, stock: 5)
                _ = try await client.send(.put, "/v1/cart/items/\(item)", json: #"{"quantity": 1}"#, token: session)
                let paid = try await client.send(
                    .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: session,
                    headers: [.init("Idempotency-Key")!: UUID().uuidString])
                #expect(paid.status == .created, "\(String(buffer: paid.body))")
                let order = try #require(try paid.json["id"] as? String)
                try await Self.eventually { fake.requests.count == 1 }

                let shipped = try await client.send(
                    .post, "/v1/admin/orders/\(order)/shipments", json: #"{"carrier":"Yamato","tracking_number":"1"}"#, token: adminToken)
                #expect(shipped.status == .created, "\(String(buffer: shipped.body))")
                try await Self.eventually { fake.requests.count == 2 }
                let shipment = try #require(try shipped.json["id"] as? String)
                #expect(try await client.send(.post, "/v1/admin/shipments/\(shipment)/delivered", token: adminToken).status == .ok)
                try await Self.eventually { fake.requests.count == 3 }
                // Two more passes of the worker: nothing is sent again.
                try await Task.sleep(for: .seconds(5))

                let pushes = fake.requests
                #expect(pushes.count == 3 && pushes.allSatisfy { $0.token == phone })
                let events = ["order_paid", "order_shipped", "order_delivered"]
                #expect(pushes.map { $0.json["event"] as? String } == events)
                for push in pushes {
                    #expect(push.jwt?.algorithm == "ES256" && push.jwt?.keyID == "KEY1234567" && push.jwt?.issuer == "TEAM123456")
                    #expect(abs(Double(push.jwt?.issuedAt ?? 0) - Date().timeIntervalSince1970) < 300)
                    #expect(push.headers["apns-topic"] == "jp.example.shop" && push.headers["apns-push-type"] == "alert")
                    #expect(push.headers["apns-collapse-id"] == "order-\(order)-\(push.json["event"] as? String ?? "")")
                    #expect(push.headers["apns-id"].flatMap(UUID.init(uuidString:)) != nil)
                    #expect(push.json["order_id"] as? String == order && push.json["path"] as? String == "/orders/\(order)")
                }
                let alert = (pushes[0].json["aps"] as? [String: Any])?["alert"] as? [String: String]
                #expect(alert?["title"] == "ご注文を承りました")
                let unsent = try await db.pool.query(
                    "SELECT count(*)::int AS n FROM push_notifications WHERE sent_at IS NULL AND order_id = $1", UUID(uuidString: order)!
                ).rows[0].decode("n", as: Int.self)
                #expect(unsent == 0)
                _ = customer
            }
        }
    }

    /// Many phones of one customer, past the cap registration keeps: the queue's tests need more
    /// pushes than one customer's 10 devices.
    static func devices(_ tokens: [String], of customer: UUID, _ db: TestDatabase) async throws {
        try await db.pool.query(
            """
            INSERT INTO devices (token, customer_id, platform, locale, created_at, updated_at)
            SELECT token, $2, 'ios', 'ja-JP', now(), now() FROM unnest(string_to_array($1, ',')) AS token
            """, tokens.joined(separator: ","), customer)
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        private let now = Mutex(Date())
        var date: Date { now.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
        var system: SystemContext { SystemContext(now: { self.date }, newID: { UUID() }) }
    }

    /// The worker alone (the app runs none: no APNs configured), on a clock the test moves:
    /// APNs' answers retire tokens, back off or give up; a worker that died holding its claims
    /// delays those pushes until the claims expire, then they are sent once; two workers at
    /// once send every push once between them.
    @Test func theWorkerRetiresRetriesGivesUpAndNeverSendsAPushTwice() async throws {
        let fake = FakeAPNs()
        try await fake.run { url in
            try await withApp { client, db in
                let (order, _, _, _, customer) = try await FulfilmentHTTPTests.paidOrder(client, db)
                let phones = (10..<40).map(Self.token)
                try await Self.devices(phones, of: customer, db)
                // Registered after the payment: their pushes are queued here, as the trigger would.
                try await db.pool.query(
                    """
                    INSERT INTO push_notifications (device_token, order_id, event, locale)
                    SELECT token, $1, 'order_paid', locale FROM devices WHERE token = ANY(string_to_array($2, ','))
                    """, UUID(uuidString: order)!, phones.joined(separator: ","))
                let (busy, gone, bad, refused, dead) = (phones[0], phones[1], phones[2], phones[3], phones[4])
                fake.script(busy, [(429, "TooManyRequests")])
                fake.script(gone, [(410, "Unregistered")])
                fake.script(bad, [(400, "BadDeviceToken")])
                fake.script(refused, [(413, "PayloadTooLarge")])

                let clock = Clock()
                let queue = PostgresPushQueue(database: db.pool)
                let provider = APNsPushProvider(settings: Self.settings(fake, url))
                let sender = PushSender(queue: queue, provider: provider, system: clock.system)
                // A worker that claimed the dead phone's push, as `claimDue` does, and died before sending it.
                try await db.pool.query(
                    "UPDATE push_notifications SET claimed_until = $2, attempts = attempts + 1 WHERE device_token = $1", dead,
                    clock.date + 60)

                // Two workers at once over the rest.
                async let one = sender.sendDue(limit: 100)
                async let two = PushSender(queue: queue, provider: provider, system: clock.system).sendDue(limit: 100)
                let (a, b) = try await (one, two)
                #expect(a.sent + b.sent == phones.count - 5 && a.retried + b.retried == 1)
                #expect(a.unregistered + b.unregistered == 1 && a.gaveUp + b.gaveUp == 2)
                let devices = try await db.pool.query(
                    "SELECT token FROM devices WHERE token = ANY(string_to_array($1, ','))", phones.joined(separator: ",")
                ).rows.map {
                    try $0.decode("token", as: String.self)
                }
                // Only a 410 forgets the device: a token APNs calls bad may be of the other environment.
                #expect(Set(devices) == Set(phones).subtracting([gone]))

                // The retry waits its backoff; the dead worker's claim holds for its minute.
                #expect(try await sender.sendDue() == PushSender.Report())
                clock.advance(3)
                var later = try await sender.sendDue()
                #expect(later.sent == 1)
                clock.advance(60)
                later = try await sender.sendDue()
                #expect(later.sent == 1)
                #expect(try await sender.sendDue() == PushSender.Report())

                // Every phone still registered got its push exactly once; the others none after
                // their refusal.
                let delivered = Dictionary(grouping: fake.requests, by: \.token)
                for phone in phones where ![gone, bad, refused].contains(phone) {
                    let accepted = (delivered[phone] ?? []).count - (phone == busy ? 1 : 0)
                    #expect(accepted == 1, "\(phone)")
                }
                let states = try await db.pool.query(
                    """
                    SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent, count(*) FILTER (WHERE gave_up_at IS NOT NULL)::int AS gave_up
                    FROM push_notifications WHERE order_id = $1
                    """, UUID(uuidString: order)!
                ).rows[0]
                #expect(try states.decode("sent", as: Int.self) == phones.count - 3 && states.decode("gave_up", as: Int.self) == 3)
            }
        }
    }

    /// A worker stopped in the middle of a batch (its task cancelled with pushes in flight, as
    /// an instance that dies): what it had not sent stays claimed until the lease ends, then
    /// another worker sends it; every push reaches APNs at least once, and one sent twice goes
    /// with the same collapse id, so the phone shows it once.
    @Test func aWorkerStoppedMidBatchLeavesNoPushUnsent() async throws {
        let fake = FakeAPNs()
        try await fake.run { url in
            try await withApp { client, db in
                let (order, _, _, _, customer) = try await FulfilmentHTTPTests.paidOrder(client, db)
                let phones = (50..<90).map(Self.token)
                try await Self.devices(phones, of: customer, db)
                try await db.pool.query(
                    """
                    INSERT INTO push_notifications (device_token, order_id, event, locale)
                    SELECT token, $1, 'order_paid', locale FROM devices WHERE token = ANY(string_to_array($2, ','))
                    """, UUID(uuidString: order)!, phones.joined(separator: ","))
                let clock = Clock()
                let queue = PostgresPushQueue(database: db.pool)
                let provider = APNsPushProvider(settings: Self.settings(fake, url))
                // The first worker's first 8 pushes reach APNs and wait for their answers; it stops.
                fake.hold()
                let doomed = Task { try await PushSender(queue: queue, provider: provider, system: clock.system).sendDue() }
                try await Self.eventually { fake.requests.count == 8 }
                doomed.cancel()
                let stopped = try await doomed.value
                fake.release()
                #expect(stopped == PushSender.Report(), "a stopped worker records no answer it did not get")
                let inFlight = Set(fake.requests.map(\.token))

                // Another worker sends the rest at once, and the 8 only once their lease is over
                // (3 s later no backoff stands in the way: the stop cost them no try).
                clock.advance(3)
                let survivor = PushSender(queue: queue, provider: provider, system: clock.system)
                #expect(try await survivor.sendDue().sent == phones.count - 8)
                #expect(try await survivor.sendDue() == PushSender.Report())
                clock.advance(60)
                #expect(try await survivor.sendDue().sent == 8)
                let unsent = try await db.pool.query(
                    "SELECT count(*)::int AS n FROM push_notifications WHERE order_id = $1 AND sent_at IS NULL", UUID(uuidString: order)!
                ).rows[0].decode("n", as: Int.self)
                #expect(unsent == 0)
                // Each of the 8 reached APNs twice, under the one collapse id of its order event.
                let reached = Dictionary(grouping: fake.requests, by: \.token)
                #expect(Set(reached.keys) == Set(phones))
                for (phone, pushes) in reached {
                    #expect(pushes.count == (inFlight.contains(phone) ? 2 : 1), "\(phone)")
                    #expect(pushes.allSatisfy { $0.headers["apns-collapse-id"] == "order-\(order)-order_paid" }, "\(phone)")
                }
            }
        }
    }

    /// Polls `condition` every 100 ms for up to 15 s.
    static func eventually(_ condition: @Sendable () -> Bool) async throws {
        for _ in 0..<150 where !condition() { try await Task.sleep(for: .milliseconds(100)) }
        #expect(condition(), "not within 15 s")
    }
}
