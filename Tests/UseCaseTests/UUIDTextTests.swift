import Domain
import Foundation
import PropertyBased
import Testing

/// `UUID.lowercasedText` and `UUID(text:)` against Foundation's `uuidString` and
/// `UUID(uuidString:)`, which they replace on the hot paths.
@Suite("UUIDs as text")
struct UUIDTextTests {
    @Test func writesWhatFoundationWritesLowercased() async {
        await propertyCheck(count: 1000, input: Gen.uint64(), Gen.uint64()) { high, low in
            let id = UUID(high: high, low: low)
            #expect(id.lowercasedText == id.uuidString.lowercased())
            #expect(UUID(text: id.lowercasedText) == id)
            #expect(UUID(text: id.uuidString) == id)
        }
    }

    /// Strings of the right length from an alphabet of hex digits, dashes and near misses: what
    /// `UUID(text:)` accepts Foundation reads as the same id, and of the strings made of hex digits
    /// with dashes in their places both accept the same ones. Foundation is laxer elsewhere: its
    /// `sscanf` lets a group start with spaces or a sign (`" 1c3c1e-..."`), which ids never do.
    @Test func acceptsWhatFoundationAccepts() async {
        let alphabet = Array("0123456789abcdefABCDEF-gG {}+xé")
        let text = Gen.int(in: 0..<alphabet.count).array(of: 36).map { String($0.map { alphabet[$0] }) }
        await propertyCheck(count: 1000, input: text, Gen.uint64(), Gen.uint64()) { text, high, low in
            // A valid id with one character replaced, as a near miss is likelier to be.
            var characters = Array(UUID(high: high, low: low).uuidString)
            characters[Int(high % 36)] = alphabet[Int(low % UInt64(alphabet.count))]
            for candidate in [text, String(characters)] {
                if let ours = UUID(text: candidate) { #expect(UUID(uuidString: candidate) == ours, "\(candidate)") }
                if Self.isCanonicalShape(candidate) { #expect(UUID(text: candidate) == UUID(uuidString: candidate), "\(candidate)") }
            }
        }
        for text in [
            "", "6f1c3c1e-8a55-4d39-9f3b-0c9d0a6b2e1", "6f1c3c1e-8a55-4d39-9f3b-0c9d0a6b2e111", "6f1c3c1e8a554d399f3b0c9d0a6b2e11",
        ] {
            #expect(UUID(text: text) == nil)
        }
    }
}

extension UUIDTextTests {
    /// Hex digits, with dashes at 8, 13, 18 and 23 and nowhere else.
    static func isCanonicalShape(_ text: String) -> Bool {
        let characters = Array(text)
        return characters.count == 36
            && characters.indices.allSatisfy { [8, 13, 18, 23].contains($0) ? characters[$0] == "-" : characters[$0].isHexDigit }
    }
}

extension UUID {
    /// The id whose 16 bytes are `high` then `low`, big-endian.
    init(high: UInt64, low: UInt64) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            withUnsafeBytes(of: high.bigEndian) { raw.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 8) }
            withUnsafeBytes(of: low.bigEndian) { (raw.baseAddress! + 8).copyMemory(from: $0.baseAddress!, byteCount: 8) }
        }
        self.init(uuid: bytes)
    }
}
