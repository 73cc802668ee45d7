import Foundation
import HTTPTestSupport
import Testing

/// A body whose framing is broken, or a head that cannot be read, is the client's fault, answered
/// as a problem like any other bad input. Before, a chunk size that is no number reached the
/// catch-all (a 500, logged as unhandled), and an unreadable head got a bare 400 with no body.
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

    /// Sends `request` as it is on a connection of its own; the answer's status, headers and
    /// problem, and whether the service then closed the connection.
    static func answer(to request: [UInt8], port: Int) async throws -> (
        status: Int, headers: [String: String], problem: [String: Any], closed: Bool
    ) {
        let connection = try RawHTTPConnection(port: port)
        try await connection.write(request)
        let head = try await connection.readHead()
        let body = try await connection.read(Int(head.headers["content-length"] ?? "0") ?? 0)
        let problem = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        return (head.status, head.headers, problem, try await connection.endsWithinTimeout())
    }

    @Test func anUnreadableHeadIsAProblemAndTheConnectionEnds() async throws {
        try await withApp(testing: .live) { client, _ in
            let port = try #require(client.port)
            func request(_ headers: [String]) -> [UInt8] {
                Array(((["GET /health HTTP/1.1", "Host: 127.0.0.1"] + headers).joined(separator: "\r\n") + "\r\n\r\n").utf8)
            }
            let large = try await Self.answer(to: request(["X-Large: " + String(repeating: "a", count: 100_000)]), port: port)
            let many = try await Self.answer(to: request((0..<1_500).map { "X-Header-\($0): v" }), port: port)
            for answer in [large, many] {
                #expect(answer.status == 431 && answer.headers["content-type"] == "application/problem+json", "\(answer.headers)")
                #expect(
                    answer.problem["type"] as? String == "/problems/request-header-fields-too-large"
                        && answer.problem["status"] as? Int == 431)
                #expect(answer.headers["connection"] == "close" && answer.closed)
            }
            let garbage = try await Self.answer(to: Array("NOT HTTP AT ALL\r\n\r\n".utf8), port: port)
            #expect(garbage.status == 400 && garbage.problem["type"] as? String == "/problems/bad-request" && garbage.closed)
            // A head within the limits is read as ever, and the service goes on answering.
            let within = try await Self.answer(
                to: request(["X-Fine: " + String(repeating: "a", count: 1_000), "Connection: close"]), port: port)
            #expect(within.status == 200)
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }
}
