import Foundation
import Postgres
import PropertyBased
import TestSupport
import Testing

@testable import Gateway

/// `JSONValue`, the reader of the JSON PostgreSQL hands back, against Foundation's writer and
/// against PostgreSQL itself on random documents, and against malformed text.
@Suite("JSON read back from PostgreSQL")
struct JSONValueTests {
    /// A random document from `seed`: nested arrays and objects of strings (escapes, controls,
    /// non-ASCII, astral characters), 64-bit integers, booleans and null.
    static func document(_ seed: Int) -> JSONValue {
        var random = SplitMix(seed: UInt64(bitPattern: Int64(seed)))
        return document(depth: 0, &random)
    }

    private static func document(depth: Int, _ random: inout SplitMix) -> JSONValue {
        switch Int.random(in: 0..<(depth < 4 ? 7 : 4), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(String(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random)))
        case 3: return .string(random.text())
        case 4, 5:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in document(depth: depth + 1, &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) { members[random.text()] = document(depth: depth + 1, &random) }
            return .object(members)
        }
    }

    /// The document as Foundation writes it (escaping `/` and control characters its own way).
    static func foundationText(_ value: JSONValue) throws -> String {
        func object(_ value: JSONValue) -> Any {
            switch value {
            case .null: return NSNull()
            case .bool(let flag): return flag
            case .number(let text): return Int64(text)!
            case .string(let text): return text
            case .array(let elements): return elements.map(object)
            case .object(let members): return members.mapValues(object)
            }
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object(value), options: [.fragmentsAllowed]), as: UTF8.self)
    }

    @Test func readsWhatFoundationWrites() async {
        await propertyCheck(count: 500, input: Gen.int()) { seed in
            let value = Self.document(seed)
            let text = try Self.foundationText(value)
            #expect(JSONValue.parse(text) == value, "\(text)")
        }
    }

    /// PostgreSQL's own output of the same documents: `json` keeps the text, `jsonb` writes it anew
    /// (spaces after separators, its own escapes, members in its order).
    @Test func readsWhatPostgreSQLWrites() async throws {
        try await TestDatabase.with(migrated: false) { db in
            await propertyCheck(count: 200, input: Gen.int()) { seed in
                let value = Self.document(seed)
                let row = try await db.pool.query(
                    "SELECT $1::json::text AS plain, $1::jsonb::text AS binary", try Self.foundationText(value)
                ).rows[0]
                let plain: String = try row.decode("plain")
                let binary: String = try row.decode("binary")
                #expect(JSONValue.parse(plain) == value, "\(plain)")
                #expect(JSONValue.parse(binary) == value, "\(binary)")
            }
        }
    }

    @Test func readsEscapesNumbersAndWhitespace() {
        #expect(
            JSONValue.parse(#" [ "\ud83d\ude00\u00e9\/\b\f" , -0 , 1.5e-3 , 2E+2 ] "#)
                == .array([.string("😀é/\u{08}\u{0C}"), .number("-0"), .number("1.5e-3"), .number("2E+2")]))
        #expect(JSONValue.parse(#"{"a": 1, "a": 2}"#) == .object(["a": .number("2")]))
        #expect(JSONValue.parse("9223372036854775807")?.int64 == .max)
        #expect(JSONValue.parse("9223372036854775808")?.int64 == nil)
        #expect(JSONValue.parse("1.0")?.int64 == nil)
    }

    @Test func refusesWhatIsNotOneJSONValue() {
        let malformed = [
            "", " ", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "+1", "1e", "tru", "nul", "True",
            "\"\u{01}\"", "\"\\x41\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\u12\"", "\"abc", "[1 2]", "1 2",
            "[", "{", "]", "'a'", "[1]]", "{\"a\":}", "NaN", "Infinity",
        ]
        for text in malformed { #expect(JSONValue.parse(text) == nil, "\(text)") }
        let deep = String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        let allowed = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(JSONValue.parse(deep) == nil)
        #expect(JSONValue.parse(allowed) != nil)
    }

    /// Any cut or changed byte of a valid document is read as some value or refused, never a trap.
    @Test func damagedDocumentsNeverTrap() async {
        await propertyCheck(count: 500, input: Gen.int(), Gen.int(in: 0...10_000), Gen.int(in: 0...255)) { seed, position, byte in
            var bytes = Array(try Self.foundationText(Self.document(seed)).utf8)
            guard !bytes.isEmpty else { return }
            let index = position % bytes.count
            if byte % 2 == 0 { bytes.removeSubrange(index...) } else { bytes[index] = UInt8(byte) }
            _ = JSONValue.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// A small seeded generator, so a failing seed reproduces its document.
struct SplitMix: RandomNumberGenerator {
    private static let alphabet: [Character] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "é", "マ", "😀", "\u{7F}",
    ]

    /// Up to 8 characters that JSON and SQL text must carry intact: quotes, backslashes, controls,
    /// non-ASCII and astral ones (never NUL, which PostgreSQL's text cannot hold).
    mutating func text() -> String {
        String((0..<Int.random(in: 0...8, using: &self)).map { _ in Self.alphabet.randomElement(using: &self)! })
    }

    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
