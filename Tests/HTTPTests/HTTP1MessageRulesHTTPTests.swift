import HTTPTestSupport
import Testing

/// What HTTP/1.1 asks of a server that Hummingbird's channel did not do (`HTTP1MessageRules`), on
/// the real server over raw sockets: the connection's end when a request asks for it, HTTP/1.0
/// framing, `100 Continue`, and the `Host` field.
@Suite("HTTP/1 message rules over HTTP")
struct HTTP1MessageRulesHTTPTests {
    /// An HTTP/1.0 request without keep-alive is answered as HTTP/1.0 and its connection ends:
    /// it waited for the idle timeout, and a 1.0 client reading to the end waited with it.
    @Test func anHTTP10RequestIsTheConnectionsLast() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.write(Array("GET /health HTTP/1.0\r\n\r\nGET /health HTTP/1.0\r\n\r\n".utf8))
            let answer = try await connection.readHead()
            #expect(answer.status == 200 && answer.version == "HTTP/1.0" && answer.headers["connection"] == "close", "\(answer)")
            _ = try await connection.read(Int(answer.headers["content-length"] ?? "0") ?? 0)
            #expect(try await connection.endsWithinTimeout(), "the request after the last one is not answered")
        }
    }

    /// HTTP/1.0 `close` wins over `keep-alive` listed beside it, a 1.0 request with a
    /// `Transfer-Encoding` (which 1.0 cannot frame) is the last, and an answer that already says
    /// `close` (a refusal) is not relabelled `keep-alive`.
    @Test func anHTTP10RequestThatCannotKeepItsConnectionIsItsLast() async throws {
        try await withApp(testing: .live) { client, _ in
            let port = try #require(client.port)
            for request in [
                "GET /health HTTP/1.0\r\nConnection: keep-alive, Close\r\n\r\n",
                "GET /health HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                // Refused with close (no tunnels): a 1.0 keep-alive answer says so, not keep-alive.
                "CONNECT a:443 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            ] {
                let answer = try await MalformedFramingHTTPTests.answer(
                    to: Array((request + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").utf8), port: port)
                #expect(answer.headers["connection"] == "close" && answer.closed, "\(request): \(answer)")
            }
        }
    }

    /// HTTP/1.0 with `Connection: keep-alive` keeps it while answers have a length.
    @Test func anHTTP10KeepAliveRequestKeepsItsConnection() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            for _ in 0..<2 {
                try await connection.write(Array("GET /v1/items?limit=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8))
                let answer = try await connection.readHead()
                #expect(answer.status == 200 && answer.version == "HTTP/1.0" && answer.headers["connection"] == "keep-alive")
                #expect(answer.headers["transfer-encoding"] == nil, "a 1.0 client cannot read chunks")
                _ = try await connection.read(Int(answer.headers["content-length"] ?? "0") ?? 0)
            }
        }
    }

    /// `close` is read in any case and inside a list, as NIO reads it: Hummingbird matched only
    /// an exact `close` and kept the connection.
    @Test func closeInAListOrAnyCaseEndsTheConnection() async throws {
        try await withApp(testing: .live) { client, _ in
            let port = try #require(client.port)
            for value in ["Close", "keep-alive, close", "CLOSE "] {
                let request = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: \(value)\r\n\r\n"
                let answer = try await MalformedFramingHTTPTests.answer(to: Array(request.utf8), port: port)
                #expect(answer.status == 200 && answer.headers["connection"] == "close" && answer.closed, "\(value): \(answer)")
            }
        }
    }

    /// An HTTP/1.1 request with no Host, two, or one that is no host is a 400 problem and the
    /// connection's end (RFC 9112 §3.2); HTTP/1.0 needs none.
    @Test func anHTTP11RequestWithoutOneValidHostIsRefused() async throws {
        try await withApp(testing: .live) { client, _ in
            let port = try #require(client.port)
            for hosts in [[], ["a", "b"], ["a b"], ["a/b"], ["user@a"], ["a:80:81"], ["[zz"], ["[::1"], ["a:8o"]] {
                let request = "GET /health HTTP/1.1\r\n" + hosts.map { "Host: \($0)\r\n" }.joined() + "\r\n"
                let answer = try await MalformedFramingHTTPTests.answer(to: Array(request.utf8), port: port)
                #expect(answer.status == 400 && answer.closed, "\(hosts): \(answer)")
                #expect(answer.headers["content-type"] == "application/problem+json", "\(hosts)")
            }
            for host in ["127.0.0.1:8080", "[::1]:80", "shop.example.", "a:", ""] {
                let request = "GET /health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
                #expect(try await MalformedFramingHTTPTests.answer(to: Array(request.utf8), port: port).status == 200, "\(host)")
            }
            // HTTP/1.0 needs none, but two or a bad one are refused there too.
            for (hosts, status) in [([String](), 200), (["a", "b"], 400), (["a/b@c"], 400)] {
                let request = "GET /health HTTP/1.0\r\n" + hosts.map { "Host: \($0)\r\n" }.joined() + "\r\n"
                #expect(try await MalformedFramingHTTPTests.answer(to: Array(request.utf8), port: port).status == status, "\(hosts)")
            }
        }
    }

    /// `Expect: 100-continue` gets `100 Continue` before the body is sent, also behind a
    /// pipelined request, after that request's answer: curl waited a second for it on every
    /// upload.
    @Test func anExpectationOfContinueIsAnswered() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            let expecting =
                "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-Continue\r\n\r\n"
            try await connection.write(Array(("GET /health HTTP/1.1\r\nHost: x\r\n\r\n" + expecting).utf8))
            let first = try await connection.readHead()
            #expect(first.status == 200)
            _ = try await connection.read(Int(first.headers["content-length"] ?? "0") ?? 0)
            #expect(try await connection.readHead().status == 100)
            try await connection.write(Array("{}".utf8))
            let answer = try await connection.readHead()
            #expect(answer.status == 422, "\(answer)")
        }
    }
}
