import Domain
import Foundation
import Presenter
import Testing

/// The problems every generated scene relies on `Problem.from` for.
@Suite("Shared problems")
struct SharedProblemTests {
    func body(_ presentation: Presentation) throws -> [String: Any] {
        let data = try #require(presentation.body)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func fields(_ presentation: Presentation) throws -> [String] {
        (try body(presentation)["errors"] as? [[String: String]] ?? []).compactMap { $0["field"] }
    }

    @Test func recordErrorsAreClientErrorsNamingTheField() throws {
        let missing = Problem.from(RecordError.notFound(entity: "wishlist entry", id: UUID()))
        #expect(missing.status == 404)
        let taken = Problem.from(RecordError.duplicate(field: "sku"))
        #expect(taken.status == 409)
        #expect(try fields(taken) == ["sku"])
        // A pair unique together is named as a pair, the field to change last.
        let pair = Problem.from(RecordError.duplicateGroup(fields: ["country", "carrier"]))
        #expect(pair.status == 409)
        #expect(try fields(pair) == ["carrier"])
        #expect(try body(pair)["detail"] as? String == "Another record already has this country and carrier.")
        let dangling = Problem.from(RecordError.missingReference(field: "item_id"))
        #expect(dangling.status == 422)
        #expect(try fields(dangling) == ["item_id"])
        // A total past Int64 (a cart of some 90,000 lines at the highest prices): refused, not a 500.
        let huge = Problem.from(MoneyError.overflow)
        #expect(huge.status == 422)
        #expect(try body(huge)["type"] as? String == "/problems/amount-too-large")
    }

    @Test func outsideFailuresAndUnwrittenUseCases() throws {
        let gateway = Problem.from(ExternalServiceError(service: "media", reason: "connection refused"))
        #expect(gateway.status == 502 && gateway.diagnostic == "media: connection refused")
        let text = String(decoding: try #require(gateway.body), as: UTF8.self)
        #expect(!text.contains("refused"), "the reason stays in the log")
        // A gateway's named refusal the use case let through: 502 naming the service, not a 500.
        struct QuotaExceeded: ExternalServiceRefusal { let service = "ShareLinks" }
        let refused = Problem.from(QuotaExceeded())
        #expect(refused.status == 502 && refused.diagnostic?.hasPrefix("ShareLinks: ") == true)
        #expect(try body(refused)["detail"] as? String == "The ShareLinks service refused the request.")
        let unwritten = Problem.from(NotImplemented(operation: "Wishlist.share"))
        #expect(unwritten.status == 501)
        #expect(try body(unwritten)["detail"] as? String == "Wishlist.share is not written yet.")
    }
}
