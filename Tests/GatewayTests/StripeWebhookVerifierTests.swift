import Crypto
import Domain
import Foundation
import Gateway
import PropertyBased
import Testing

/// Stripe's signature scheme on the real HMAC: only a body signed with the endpoint's secret, at
/// a time within the tolerance, is read; anything else is refused before it is parsed.
@Suite("Stripe webhook signatures")
struct StripeWebhookVerifierTests {
    static let secret = "whsec_test_0123456789abcdef"
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let body = Array(
        #"{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"id":"pi_1","object":"payment_intent","status":"succeeded"}}}"#
            .utf8)

    static func sign(_ body: [UInt8], at time: Int64, secret: String = secret) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("\(time).".utf8) + body, using: SymmetricKey(data: Array(secret.utf8)))
        return code.map { String(format: "%02x", $0) }.joined()
    }

    static let verifier = StripeWebhookVerifier(secret: secret)
    static let t = Int64(now.timeIntervalSince1970)

    @Test func aSignedEventIsRead() throws {
        let event = try Self.verifier.event(
            payload: Self.body, signature: "t=\(Self.t),v1=\(Self.sign(Self.body, at: Self.t))", now: Self.now)
        #expect(event == PaymentEvent(id: "evt_1", type: "payment_intent.succeeded", paymentIntentID: "pi_1"))
        #expect(event.kind == .payment)
        // Any of several v1 signatures (a secret being rolled), among other schemes' entries.
        let rolled =
            "t=\(Self.t),v1=\(Self.sign(Self.body, at: Self.t, secret: "whsec_old_secret_000000")),v0=abc,v1=\(Self.sign(Self.body, at: Self.t))"
        #expect(try Self.verifier.event(payload: Self.body, signature: rolled, now: Self.now).id == "evt_1")
    }

    @Test func chargesAndRefundsNameTheirPayment() throws {
        let body = Array(
            #"{"id":"evt_2","type":"charge.refund.updated","data":{"object":{"id":"re_1","object":"refund","payment_intent":"pi_9"}}}"#.utf8
        )
        let event = try Self.verifier.event(payload: body, signature: "t=\(Self.t),v1=\(Self.sign(body, at: Self.t))", now: Self.now)
        #expect(event.paymentIntentID == "pi_9" && event.kind == .refund)
        let dispute = Array(
            #"{"id":"evt_3","type":"charge.dispute.created","data":{"object":{"id":"dp_1","object":"dispute","payment_intent":"pi_9"}}}"#
                .utf8)
        #expect(
            try Self.verifier.event(payload: dispute, signature: "t=\(Self.t),v1=\(Self.sign(dispute, at: Self.t))", now: Self.now).kind
                == .dispute)
    }

    @Test func forgedTamperedAndStaleAreRefused() {
        let good = Self.sign(Self.body, at: Self.t)
        let cases: [(String?, [UInt8], PaymentEventError)] = [
            (nil, Self.body, .badSignature),
            ("", Self.body, .badSignature),
            ("v1=\(good)", Self.body, .badSignature),
            ("t=\(Self.t)", Self.body, .badSignature),
            ("t=\(Self.t),v1=\(Self.sign(Self.body, at: Self.t, secret: "whsec_someone_else_0000"))", Self.body, .badSignature),
            ("t=\(Self.t),v1=\(good)", Self.body + [0x20], .badSignature),
            ("t=\(Self.t + 1),v1=\(good)", Self.body, .badSignature),
            ("t=\(Self.t),v1=\(good.uppercased())x", Self.body, .badSignature),
            ("t=\(Self.t - 301),v1=\(Self.sign(Self.body, at: Self.t - 301))", Self.body, .staleSignature),
            ("t=\(Self.t + 301),v1=\(Self.sign(Self.body, at: Self.t + 301))", Self.body, .staleSignature),
            ("t=\(Self.t),v1=\(Self.sign(Array("not json".utf8), at: Self.t))", Array("not json".utf8), .malformed),
        ]
        // Signed, but naming a payment no provider writes (PostgreSQL refused the U+0000: a 500).
        let payments = [#""pi_\u0000""#, #""""#, "\"pi_\(String(repeating: "x", count: 300))\""]
        let strange = payments.flatMap { payment in
            [
                #"{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"id":\#(payment),"object":"payment_intent"}}}"#,
                #"{"id":"evt_2","type":"charge.refunded","data":{"object":{"id":"ch_1","object":"charge","payment_intent":\#(payment)}}}"#,
            ].map { body in ("t=\(Self.t),v1=\(Self.sign(Array(body.utf8), at: Self.t))", Array(body.utf8), PaymentEventError.malformed) }
        }
        for (header, body, expected) in cases + strange {
            #expect(throws: expected, "\(header ?? "nil")") { try Self.verifier.event(payload: body, signature: header, now: Self.now) }
        }
        // Within the tolerance is fine.
        #expect(throws: Never.self) {
            try Self.verifier.event(
                payload: Self.body, signature: "t=\(Self.t - 300),v1=\(Self.sign(Self.body, at: Self.t - 300))", now: Self.now)
        }
    }

    @Test func anyHeaderAndBodyIsRefusedNeverATrap() async {
        let text = Gen<Character>.latin1.string(of: 0...200)
        await propertyCheck(count: 500, input: text, text) { header, body in
            #expect(throws: PaymentEventError.self) {
                try Self.verifier.event(payload: Array(body.utf8), signature: header, now: Self.now)
            }
            // Extreme timestamps with a valid-looking signature field.
            #expect(throws: PaymentEventError.self) {
                try Self.verifier.event(payload: Array(body.utf8), signature: "t=\(Int64.min),v1=\(header)", now: Self.now)
            }
        }
    }
}
