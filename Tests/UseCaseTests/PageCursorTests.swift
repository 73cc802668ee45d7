import Domain
import Foundation
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
