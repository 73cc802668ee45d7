import Crypto
import Domain
import Foundation

/// Stripe's webhook signatures: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, each
/// `v1` an HMAC-SHA256 of `"<t>.<raw body>"` under the endpoint's secret (several `v1` while a
/// secret is rolled). The body is verified before it is parsed, any `v1` may match (compared in
/// constant time), and a signature older or newer than `tolerance` is refused as a replay.
public struct StripeWebhookVerifier: PaymentEventVerifier {
    private let key: SymmetricKey
    private let tolerance: Duration

    /// - Parameters:
    ///   - secret: `PAYMENT_WEBHOOK_SECRET` (`whsec_...`).
    ///   - tolerance: how far the signature's time may be from ours, 300 s as Stripe's libraries.
    public init(secret: String, tolerance: Duration = .seconds(300)) {
        self.key = SymmetricKey(data: Array(secret.utf8))
        self.tolerance = tolerance
    }

    public func event(payload: [UInt8], signature: String?, now: Date) throws(PaymentEventError) -> PaymentEvent {
        guard let header = signature, header.utf8.count <= 2048 else { throw .badSignature }
        var timestamp: Int64?
        var candidates: [[UInt8]] = []
        for element in header.split(separator: ",") {
            let pair = element.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1", let bytes = Self.hex(pair[1]), bytes.count == SHA256.byteCount { candidates.append(bytes) }
        }
        guard let timestamp, !candidates.isEmpty else { throw .badSignature }
        let signed = Array("\(timestamp).".utf8) + payload
        guard candidates.contains(where: { HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: signed, using: key) }) else {
            throw .badSignature
        }
        guard abs(now.timeIntervalSince1970 - Double(timestamp)) <= Double(tolerance.components.seconds) else { throw .staleSignature }
        guard let wire = try? JSONDecoder().decode(StripeEventWire.self, from: Data(payload)) else { throw .malformed }
        let object = wire.data.object
        let paymentIntentID = object.object == "payment_intent" ? object.id : object.paymentIntent
        // Each is bound as PostgreSQL text, which cannot hold U+0000.
        guard [wire.id, wire.type].allSatisfy(Self.isIdentifier), paymentIntentID.map(Self.isIdentifier) ?? true else {
            throw .malformed
        }
        return PaymentEvent(id: wire.id, type: wire.type, paymentIntentID: paymentIntentID)
    }

    /// An id or type the provider could have written: 1 to 255 bytes, no U+0000.
    private static func isIdentifier(_ text: String) -> Bool {
        (1...255).contains(text.utf8.count) && !text.utf8.contains(0)
    }

    /// Bytes of lowercase or uppercase hex, or nil.
    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// `{"id": "evt_...", "type": "...", "data": {"object": {"id", "object", "payment_intent"}}}`.
struct StripeEventWire: Decodable {
    let id: String
    let type: String
    let data: DataWire

    struct DataWire: Decodable { let object: ObjectWire }

    struct ObjectWire: Decodable {
        let id: String?
        let object: String?
        let paymentIntent: String?

        enum CodingKeys: String, CodingKey {
            case id, object
            case paymentIntent = "payment_intent"
        }
    }
}
