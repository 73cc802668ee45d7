import HTTPTestSupport
import Testing

/// A body whose framing is broken is the client's fault, answered as a problem like any other bad
/// input. Before, a chunk size that is no number reached the catch-all: a 500, logged as unhandled.
@Suite("Malformed framing over HTTP")
struct MalformedFramingHTTPTests {
    @Test func aBrokenChunkedBodyIsA400Problem() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.head(
                "POST", "/v1/sessions",
                headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked"), ("Connection", "close")])
            try await connection.write(Array("zz\r\n{}\r\n0\r\n\r\n".utf8))
            let answer = try await connection.readHead()
            #expect(answer.status == 400)
            #expect(answer.headers["content-type"]?.hasPrefix("application/problem+json") == true, "\(answer.headers)")
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }
}
