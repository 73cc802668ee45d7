import Domain
import Foundation
import Presenter
import Testing
import Translator

/// What the generated models of a scene without an entity (`MatrixBoard.yml`) answer: every
/// member written (`null` included), enum values verbatim, money and instants as every model
/// writes them, another scene's entity through that scene's translator, and a page of it.
@Suite("MatrixBoard's models (hand-written checks of generated code)")
struct MatrixBoardModelTests {
    static let record = UnownedRecord(
        id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, itemID: nil, code: "c-1", note: nil, rank: 2, views: nil,
        visible: true, fee: nil, startsAt: nil, state: .live, createdAt: Date(timeIntervalSince1970: 0))

    static func json(_ presentation: Presentation) throws -> [String: Any] {
        let data = try #require(presentation.body)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aBoardIsWrittenWholeWithItsNestedModels() throws {
        let board = Board(
            title: "t", level: .midWay, total: Money(amount: 1200, currency: Currency("JPY")!), updatedAt: nil, tags: ["x", "y"],
            levels: [.b], lead: nil, records: [Self.record],
            tally: BoardTally(count: Int64.max, ok: false, ownerID: nil, note: "n", ratio: nil, mood: .loud), score: 4.25,
            counts: ["b": 2, "a": 1], pinned: BoardNote(text: "hi", mood: .loud, author: "staff"))
        let presentation = MatrixBoardPresenter.show(.success(.board(board)))
        #expect(presentation.status == 200)
        let body = try Self.json(presentation)
        #expect(
            Set(body.keys) == [
                "title", "level", "total", "updated_at", "tags", "levels", "lead", "records", "tally", "score", "counts", "pinned",
            ])
        #expect(body["counts"] as? [String: Int] == ["a": 1, "b": 2])
        // A hand-written Domain type shows only what the spec lists.
        #expect(body["pinned"] as? [String: String] == ["text": "hi", "mood": "loud", "headline": "HI"])
        #expect(body["score"] as? Double == 4.25)
        #expect(body["level"] as? String == "mid-way" && body["levels"] as? [String] == ["b"])
        #expect(body["updated_at"] is NSNull && body["lead"] is NSNull && body["tags"] as? [String] == ["x", "y"])
        #expect((body["total"] as? [String: Any])?["amount"] as? Int == 1200)
        let tally = try #require(body["tally"] as? [String: Any])
        #expect(
            tally["count"] as? Int64 == Int64.max && tally["ok"] as? Bool == false && tally["owner_id"] is NSNull
                && tally["ratio"] is NSNull && tally["mood"] as? String == "loud")
        let record = try #require((body["records"] as? [[String: Any]])?.first)
        #expect(record["state"] as? String == "LIVE" && record["id"] as? String == "00000000-0000-4000-8000-000000000001")
    }

    @Test func aPageOfAnotherScenesEntityCarriesItsCursor() throws {
        let cursor = PageCursor(createdAt: Date(timeIntervalSince1970: 1), id: Self.record.id)
        let presentation = MatrixBoardPresenter.records(.success(.page(Page(items: [Self.record], nextCursor: cursor))))
        let body = try Self.json(presentation)
        #expect(presentation.status == 200 && (body["data"] as? [[String: Any]])?.count == 1)
        #expect(body["next_cursor"] as? String == cursor.token)
        #expect(MatrixBoardPresenter.show(.success(.empty)).status == 404)
    }
}
