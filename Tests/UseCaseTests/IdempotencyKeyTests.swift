import Domain
import PropertyBased
import Testing

@Suite("Idempotency keys")
struct IdempotencyKeyTests {
    /// Any key of 1 to 255 visible ASCII characters is one; one character more, or any control
    /// character, space, DEL or non-ASCII character anywhere in it, and it is not (a control
    /// character passed before: the check was "ASCII and not whitespace").
    @Test func aKeyIsOneTo255VisibleASCIICharacters() async {
        let visible = Gen.character(in: "!"..."~")
        let outside = Gen<Character>.oneOf(
            Gen.character(in: "\u{0}"..."\u{1F}"), Gen.always(" "), Gen.always("\u{7F}"), Gen.character(in: "\u{80}"..."\u{D7FF}"))
        await propertyCheck(count: 300, input: visible.string(of: 1...255), outside, Gen.int(in: 0...254)) { key, bad, position in
            #expect(IdempotencyKey.isWellFormed(key))
            var broken = Array(key)
            broken.insert(bad, at: min(position, broken.count))
            #expect(!IdempotencyKey.isWellFormed(String(broken)), "\(Array(String(bad).unicodeScalars))")
        }
        #expect(!IdempotencyKey.isWellFormed("") && !IdempotencyKey.isWellFormed(String(repeating: "k", count: 256)))
    }
}
