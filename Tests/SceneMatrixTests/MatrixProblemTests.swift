import Domain
import Foundation
import Presenter
import Testing

/// What generated presenters answer for problem outcomes (`MatrixTyped.yml`'s `conflict`,
/// `MatrixOwned.yml`'s `seal`): problem+json with the spec's detail and field errors, the
/// outcome's members filled into them and written beside them, and a 401's challenge.
@Suite("Problem outcomes (hand-written checks of generated code)")
struct MatrixProblemTests {
    static func json(_ presentation: Presentation) throws -> [String: Any] {
        let data = try #require(presentation.body)
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aProblemsMembersFillItsDetailAndSitBesideIt() throws {
        let heldBy = UUID(uuidString: "00000000-0000-4000-8000-0000000000AB")!
        let conflict = MatrixTypedPresenter.inspect(
            .success(
                .conflict(
                    slot: 3, count: Int64.max, total: 9, heldBy: heldBy, kind: .b, full: true, seenAt: Date(timeIntervalSince1970: 0),
                    note: nil, fee: Money(amount: 1250, currency: Currency("USD")!), deposit: nil, holders: [heldBy], kinds: [.b, .a],
                    errors: [FieldError("lines[2].quantity", "only 1 available")])))
        #expect(conflict.status == 409 && conflict.headers.contains { $0 == ("Content-Type", "application/problem+json") })
        let body = try Self.json(conflict)
        #expect(
            body["detail"] as? String == "Slot 3 holds 9223372036854775807 of 9 (b, full: true) since 1970-01-01T00:00:00.000Z, at $12.50.")
        // Money is an object, as everywhere in the API; an absent optional is no member.
        let fee = try #require(body["fee"] as? [String: Any])
        #expect(fee.count == 2 && fee["amount"] as? Int == 1250 && fee["currency"] as? String == "USD" && body["deposit"] == nil)
        #expect(body["count"] as? Int64 == Int64.max && body["full"] as? Bool == true && body["kind"] as? String == "b")
        #expect(body["held_by"] as? String == "00000000-0000-4000-8000-0000000000ab" && body["note"] == nil)
        #expect(body["holders"] as? [String] == ["00000000-0000-4000-8000-0000000000ab"] && body["kinds"] as? [String] == ["b", "a"])
        let errors = try #require(body["errors"] as? [[String: String]])
        // The spec's errors, then the logic's.
        #expect(
            errors == [
                ["field": "slot", "message": "is held by 00000000-0000-4000-8000-0000000000ab"],
                ["field": "lines[2].quantity", "message": "only 1 available"],
            ])
        let refused = try Self.json(MatrixTypedPresenter.inspect(.success(.refused(errors: [FieldError("code", "is taken")]))))
        #expect(refused["status"] as? Int == 422 && refused["errors"] as? [[String: String]] == [["field": "code", "message": "is taken"]])
    }

    @Test func problemOutcomesCarryTheirDetailFieldErrorsAndChallenge() throws {
        let refused = MatrixOwnedPresenter.seal(.success(.refused))
        #expect(refused.status == 403)
        let body = try Self.json(refused)
        #expect(body["detail"] as? String == "This record cannot be sealed.")
        #expect((body["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["reason", "id"])
        let signedOut = MatrixOwnedPresenter.seal(.success(.signedOut))
        #expect(signedOut.status == 401 && signedOut.headers.contains { $0.name == "WWW-Authenticate" && $0.value == "Bearer" })
    }

    @Test func aSuccessWithALocationNamesItsRecord() {
        let gadget = TypedGadget(
            id: UUID(uuidString: "00000000-0000-4000-8000-0000000000CD")!, label: "g", createdAt: Date(timeIntervalSince1970: 0))
        let repriced = MatrixTypedPresenter.reprice(.success(.repriced(gadget)))
        #expect(repriced.status == 200)
        #expect(repriced.headers.contains { $0 == ("Location", "/v1/matrix/gadgets/00000000-0000-4000-8000-0000000000cd") })
    }

    @Test func aPartialMoneyTakesEitherHalfAndChecksWhatItGets() throws {
        func discount(_ amount: Int64?, _ currency: String?) throws -> MoneyChange? {
            try MatrixTypedRepriceInput.Unchecked(
                id: UUID(), price: MoneyInput(amount: 1, currency: "JPY"), at: Date(), targetID: UUID(), mode: "soft", notify: true,
                discount: MoneyChangeInput(amount: amount, currency: currency)
            ).validated().discount
        }
        #expect(try discount(100, nil) == MoneyChange(amount: 100, currency: nil))
        #expect(try discount(nil, "EUR") == MoneyChange(amount: nil, currency: Currency("EUR")))
        #expect(throws: ValidationError([FieldError("discount.amount", "must be 0 to 5000 minor units")])) { try discount(5001, "EUR") }
        #expect(throws: ValidationError([FieldError("discount", "must set amount, currency or both")])) { try discount(nil, nil) }
    }
}
