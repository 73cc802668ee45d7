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
}
