import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Testing

/// A generated create's body (`MatrixZone.yml`): every missing field named in one answer, and
/// every member of the wrong type in one answer, on the real router.
@Suite("Create bodies (hand-written checks of generated code)")
struct MatrixCreateBodyTests {
    @Test func everyMissingFieldAndEveryWrongTypeIsNamedAtOnce() async throws {
        try await withApp { client, _ in
            let empty = try await client.send(.post, "/v1/matrix/admin/zones", json: "{}", token: adminToken)
            try empty.expectProblem(422)
            #expect(Set(empty.fieldNames) == ["country", "name", "fee", "rank"], "\(empty.fieldNames)")
            let wrong = try await client.send(
                .post, "/v1/matrix/admin/zones", json: #"{"country": 1, "name": "a", "fee": {"amount": "x"}, "rank": "first"}"#,
                token: adminToken)
            try wrong.expectProblem(422)
            #expect(Set(wrong.fieldNames) == ["country", "fee.amount", "rank"], "\(wrong.fieldNames)")
        }
    }

    /// A member of the right JSON type that still makes no value of its own (`"x"` for a UUID,
    /// `1.5` or `1e20` for an integer) is named as what it must be, as a wrong type is.
    @Test func aValueThatMakesNoMemberSaysWhatItMustBe() async throws {
        try await withApp { client, _ in
            let zones = "/v1/matrix/admin/zones"
            let price = "/v1/matrix/gadgets/\(UUID())/price"
            for (route, json, field, message) in [
                (
                    zones, #"{"country": "JP", "name": "a", "fee": {"amount": 1, "currency": "JPY"}, "rank": 1.5}"#, "rank",
                    "must be an integer"
                ),
                (
                    zones, #"{"country": "JP", "name": "a", "fee": {"amount": 1, "currency": "JPY"}, "rank": 1e20}"#, "rank",
                    "must be an integer"
                ),
                (
                    price,
                    #"{"price": {"amount": 1, "currency": "JPY"}, "at": "2026-11-20T08:00:00Z", "target_id": "x", "mode": "soft", "notify": true}"#,
                    "target_id", "must be a UUID"
                ),
            ] {
                let answer = try await client.send(route == zones ? .post : .put, route, json: json, token: adminToken)
                let errors = try answer.expectProblem(422)["errors"] as? [[String: String]]
                #expect(errors == [["field": field, "message": message]], "\(json)")
            }
        }
    }
}
