import Domain
import Foundation
import PropertyBased
import Testing

@Suite("Page cursors")
struct PageCursorTests {
    @Test func aTokenIsURLSafeBase64OfTheMicrosecondsAndTheIDAndReadsBack() throws {
        for micros in [Int64(0), 1, 1_795_347_649_123_456, -86_400_000_000] {
            let id = UUID.random()
            let cursor = PageCursor(createdAt: Date(timeIntervalSince1970: Double(micros) / 1_000_000), id: id)
            let token = cursor.token
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(token)")
            var standard = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
            let text = try #require(Data(base64Encoded: standard).map { String(decoding: $0, as: UTF8.self) })
            #expect(text == "\(cursor.createdAtMicros)|\(id.uuidString.lowercased())")
            #expect(PageCursor(token: token) == cursor)
        }
    }

    @Test(arguments: ["", "not a cursor", "%%%", "MTIzfG5vdC1hLXV1aWQ", String(repeating: "A", count: 101), "MTIz"])
    func anythingElseIsNoCursor(_ token: String) {
        #expect(PageCursor(token: token) == nil)
    }
}

/// What a client can put in a cursor: any text. Every one either reads back as a cursor inside
/// `PageCursor.validMicros` or is refused; none traps (a forged `Int64.max` once killed the
/// process on its way to PostgreSQL).
@Suite("Page cursors from clients")
struct PageCursorPropertyTests {
    /// The token a client could forge for `micros`, whatever its value.
    static func token(micros: Int64, id: UUID = UUID.random()) -> String {
        Data("\(micros)|\(id.uuidString.lowercased())".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let bounds = PageCursor.validMicros

    @Test func everyInstantInsideTheBoundsRoundTrips() async {
        await propertyCheck(count: 500, input: Gen.int64(in: Self.bounds.lowerBound...(Self.bounds.upperBound - 1))) { micros in
            let cursor = PageCursor(token: Self.token(micros: micros))
            #expect(cursor?.createdAtMicros == micros)
            #expect(cursor.flatMap { PageCursor(token: $0.token) } == cursor)
        }
    }

    @Test func everyInstantOutsideTheBoundsIsRefused() async {
        let below = Gen.int64(in: Int64.min...(Self.bounds.lowerBound - 1))
        let above = Gen.int64(in: Self.bounds.upperBound...Int64.max)
        await propertyCheck(count: 500, input: below, above) { low, high in
            #expect(PageCursor(token: Self.token(micros: low)) == nil)
            #expect(PageCursor(token: Self.token(micros: high)) == nil)
        }
        for micros in [Int64.min, Int64.max, Int64.max - 1, -300_000_000_000_000_000, Self.bounds.upperBound, Self.bounds.lowerBound - 1] {
            #expect(PageCursor(token: Self.token(micros: micros)) == nil, "\(micros)")
        }
    }

    @Test func theBoundsThemselves() {
        #expect(PageCursor(token: Self.token(micros: Self.bounds.lowerBound))?.createdAt == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(PageCursor(token: Self.token(micros: Self.bounds.upperBound - 1)) != nil)
    }

    @Test func anyTextIsACursorInsideTheBoundsOrNone() async {
        let text = Gen<Character>.latin1.string(of: 0...120)
        await propertyCheck(count: 1000, input: text) { token in
            if let cursor = PageCursor(token: token) { #expect(Self.bounds.contains(cursor.createdAtMicros)) }
        }
        // Base64 of text that is not UTF-8, of NUL, of a number with a sign or spaces.
        for raw in [[0xFF, 0xFE, 0x7C], Array("0\u{0}|\(UUID())".utf8), Array("+1|\(UUID())".utf8), Array(" 1|\(UUID())".utf8)] {
            let token = Data(raw).base64EncodedString()
            if let cursor = PageCursor(token: token) { #expect(Self.bounds.contains(cursor.createdAtMicros)) }
        }
    }

    @Test func anyInstantMakesACursorInsideTheBounds() async {
        let seconds = Gen.double(in: -1e300...1e300)
        await propertyCheck(count: 500, input: seconds) { value in
            let cursor = PageCursor(createdAt: Date(timeIntervalSince1970: value), id: UUID.random())
            #expect(Self.bounds.contains(cursor.createdAtMicros))
        }
        for value in [Double.infinity, -.infinity, .nan, Date.distantFuture.timeIntervalSince1970, Date.distantPast.timeIntervalSince1970] {
            #expect(Self.bounds.contains(PageCursor(createdAt: Date(timeIntervalSince1970: value), id: UUID.random()).createdAtMicros))
        }
    }

    @Test func aForgedCursorMakesTheRequestMalformed() throws {
        let error = #expect(throws: ValidationError.self) {
            try PageRequest(limit: nil, cursor: Self.token(micros: .max))
        }
        #expect(error?.isMalformed == true)
        #expect(error?.fields.map(\.field) == ["cursor"])
        let limit = #expect(throws: ValidationError.self) { try PageRequest(limit: 0, cursor: nil) }
        #expect(limit?.isMalformed == false)
    }

    /// A name-sorted page's cursor reads back whatever the name holds: a combining mark or a
    /// prepended character next to the separator once made the service refuse its own cursor.
    @Test func anItemCursorReadsBackWhateverTheNameHolds() async {
        let marks = Gen<Character>.oneOf(
            Gen.always("\u{301}"), Gen.always("\u{600}"), Gen.always("|"), Gen.always("\u{200D}"), Gen.always("\u{1F1EF}"),
            Gen.character(in: "\u{20}"..."\u{D7FF}"))
        await propertyCheck(count: 500, input: marks.string(of: 0...200)) { name in
            let cursor = ItemCursor(sort: .name, key: .text(name), id: UUID.random())
            #expect(ItemCursor(token: cursor.token) == cursor, "\(Array(name.unicodeScalars))")
        }
    }
}
