import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("X-Request-ID")
struct RequestIDHTTPTests {
    static let header = HTTPField.Name("X-Request-ID")!

    @Test func everyAnswerCarriesAnIdAndAPlainClientIdIsKept() async throws {
        try await withApp { client, _ in
            let fresh = try await client.send(.get, "/v1/items")
            let id = try #require(fresh.headers[Self.header])
            #expect(id.count == 36)
            let other = try await client.send(.get, "/v1/items")
            #expect(other.headers[Self.header] != id, "a new id per request")

            let kept = try await client.send(.get, "/v1/nowhere", headers: [Self.header: "abc-123.x"])
            #expect(kept.status == .notFound && kept.headers[Self.header] == "abc-123.x", "errors carry it too")
            let replaced = try await client.send(.get, "/v1/items", headers: [Self.header: "bad id\u{7f}<script>"])
            #expect(replaced.headers[Self.header]?.count == 36)
        }
    }
}
