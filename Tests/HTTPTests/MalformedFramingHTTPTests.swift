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

    /// A staff image whose client stops sending mid-body: the client's fault, 400, where the
    /// route that turns its logic's errors into answers made it a 500 and logged an error.
    @Test func anUploadCutByItsClientIsA400Problem() async throws {
        try await withApp(testing: .live) { client, _ in
            let created = try await client.send(.post, "/v1/admin/items", json: VariantHTTPTests.tee, token: adminToken)
            let id = try #require(try created.json["id"] as? String)
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.head(
                "POST", "/v1/admin/items/\(id)/images",
                headers: [
                    ("Authorization", "Bearer \(adminToken)"), ("Content-Type", "multipart/form-data; boundary=cut"),
                    ("Content-Length", "10000"),
                ])
            try await connection.write(
                Array("--cut\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\n\r\n".utf8) + [0xFF, 0xD8, 0xFF])
            connection.endWriting()
            let answer = try await connection.readHead()
            #expect(answer.status == 400)
            #expect(answer.headers["content-type"]?.hasPrefix("application/problem+json") == true, "\(answer.headers)")
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

    /// A request answered before its body ended (a 413 by its Content-Length) whose rest does not
    /// follow promptly ends its connection soon after the answer, instead of the rest being read
    /// and dropped until the request deadline; a request read in full keeps its connection.
    @Test func aRequestAnsweredBeforeItsBodyEndedEndsTheConnection() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.head(
                "POST", "/v1/sessions", headers: [("Content-Type", "application/json"), ("Content-Length", "1000000000")])
            try await connection.write(Array(repeating: UInt8(ascii: " "), count: 64 * 1024))
            let answer = try await connection.readHead()
            #expect(answer.status == 413, "\(answer)")
            _ = try await connection.read(Int(answer.headers["content-length"] ?? "0") ?? 0)
            #expect(try await connection.endsWithinTimeout(), "closed after the answer, not after a gigabyte")

            let kept = try RawHTTPConnection(port: try #require(client.port))
            let body = #"{"email":"nobody@example.com","password":"wrong horse 1"}"#
            try await kept.head(
                "POST", "/v1/sessions", headers: [("Content-Type", "application/json"), ("Content-Length", "\(body.utf8.count)")])
            try await kept.write(Array(body.utf8))
            let refused = try await kept.readHead()
            #expect(refused.status == 401, "\(refused)")
            _ = try await kept.read(Int(refused.headers["content-length"] ?? "0") ?? 0)
            try await Task.sleep(for: .seconds(3))
            try await kept.head("GET", "/health", headers: [])
            #expect(try await kept.readHead().status == 200, "still open past the lingering time")
        }
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

    /// A transfer coding other than chunked alone leaves the body's length unknown (RFC 9112
    /// §6.3): one problem answers it, nothing of it is served, and the connection ends. Before, the
    /// request was served as if it had no body and then followed by a second, bare 400.
    @Test func aTransferCodingOtherThanChunkedIsRefusedBeforeAnyRoute() async throws {
        try await withApp(testing: .live) { client, db in
            let port = try #require(client.port)
            func signUp(_ coding: String, email: String) -> [UInt8] {
                let body = #"{"email":"\#(email)","password":"correct horse battery","name":"T"}"#
                return Array(
                    ([
                        "POST /v1/customers HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", "Transfer-Encoding: \(coding)",
                    ].joined(separator: "\r\n") + "\r\n\r\n" + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n").utf8)
            }
            for (coding, status, type) in [
                ("xchunked", 400, "/problems/bad-request"), ("gzip", 400, "/problems/bad-request"),
                ("chunked, identity", 400, "/problems/bad-request"), ("chun\u{212A}ed", 400, "/problems/bad-request"),
                ("chunked\u{A0}", 400, "/problems/bad-request"),
                ("gzip, chunked", 501, "/problems/transfer-coding-not-implemented"),
            ] {
                let answer = try await Self.answer(to: signUp(coding, email: "te-\(status)@example.com"), port: port)
                #expect(answer.status == status && answer.problem["type"] as? String == type, "\(coding): \(answer)")
                #expect(answer.headers["connection"] == "close" && answer.closed, "\(coding)")
            }
            #expect(try await db.pool.query("SELECT 1 FROM customers").rows.isEmpty, "no request was served")
            let chunked = try await Self.answer(to: signUp("Chunked", email: "te-ok@example.com"), port: port)
            #expect(chunked.status == 201, "chunked alone, in any case, is read as ever")
        }
    }

    /// A CONNECT, to a path or a host, is answered 501 and its connection ends at once: routed,
    /// it got a 405 without a body or a length and the connection hung until the idle timeout,
    /// a request pipelined behind it never answered.
    @Test func aConnectIsRefusedAndItsConnectionEnds() async throws {
        try await withApp(testing: .live) { client, _ in
            let port = try #require(client.port)
            for target in ["/v1/items", "example.com:443"] {
                let answer = try await Self.answer(
                    to: Array("CONNECT \(target) HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8), port: port)
                #expect(answer.status == 501 && answer.headers["connection"] == "close" && answer.closed, "\(target): \(answer)")
                #expect(answer.headers["content-type"] == nil, "no body can follow, so no problem's type")
            }
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    /// A request asking to switch protocols (curl --http2 on http://) is answered over HTTP/1.1
    /// and its connection ends, saying so: the decoder read nothing more on it, and the next
    /// request waited 60 s for the idle timeout.
    @Test func anUpgradeRequestIsAnsweredAndItsConnectionEnds() async throws {
        try await withApp(testing: .live) { client, _ in
            let port = try #require(client.port)
            for upgrade in ["h2c", "websocket"] {
                let request = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: \(upgrade)\r\n\r\n"
                let answer = try await Self.answer(to: Array((request + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").utf8), port: port)
                #expect(answer.status == 200 && answer.headers["connection"] == "close" && answer.closed, "\(upgrade): \(answer)")
            }
            // Without Connection: upgrade the header asks nothing: the connection stays.
            let connection = try RawHTTPConnection(port: port)
            try await connection.write(Array("GET /health HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\n\r\n".utf8))
            let first = try await connection.readHead()
            #expect(first.status == 200 && first.headers["connection"] == nil)
            _ = try await connection.read(Int(first.headers["content-length"] ?? "0") ?? 0)
            try await connection.write(Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try await connection.readHead().status == 200)
        }
    }

    /// A request pipelined behind another keeps its connection while its body arrives slowly:
    /// the earlier request's answer had been taken for an answer before this one's body ended,
    /// and the connection was cut 2 s later, mid-upload.
    @Test func aPipelinedRequestsSlowBodyIsReadInFull() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            let body = #"{"email":"nobody@example.com","password":"wrong password"}"#
            try await connection.write(
                Array(
                    ("GET /health HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1/sessions HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(5)).utf8))
            let first = try await connection.readHead()
            #expect(first.status == 200)
            _ = try await connection.read(Int(first.headers["content-length"] ?? "0") ?? 0)
            try await Task.sleep(for: .milliseconds(2500))
            try await connection.write(Array(body.dropFirst(5).utf8))
            #expect(try await connection.readHead().status == 401)
        }
    }

    /// A body whose framing breaks after its request was answered (a route that never reads it)
    /// ends the connection with no second answer: Hummingbird's bare 400 followed the 200, and a
    /// client took it for the next request's answer.
    @Test func aBrokenBodyAfterItsAnswerGetsNoSecondAnswer() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.write(
                Array(
                    ("GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n\r\n"
                        + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").utf8))
            let answer = try await connection.readHead()
            #expect(answer.status == 200)
            _ = try await connection.read(Int(answer.headers["content-length"] ?? "0") ?? 0)
            #expect(try await connection.endsWithinTimeout(), "no second answer")
        }
    }

    /// Requests pipelined before an unreadable one each get their answer, in order, before its
    /// problem: the problem used to go out at once and cut the answer of the request before it.
    @Test func anUnreadableRequestBehindPipelinedOnesIsAnsweredAfterThem() async throws {
        try await withApp(testing: .live) { client, _ in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            let first = "GET /v1/items?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            try await connection.write(Array((first + "GARBAGE\r\n\r\n").utf8))
            let answer = try await connection.readHead()
            #expect(answer.status == 200)
            _ = try await connection.read(Int(answer.headers["content-length"] ?? "0") ?? 0)
            let refusal = try await connection.readHead()
            #expect(refusal.status == 400 && refusal.headers["content-type"] == "application/problem+json")
            _ = try await connection.read(Int(refusal.headers["content-length"] ?? "0") ?? 0)
            #expect(try await connection.endsWithinTimeout())
        }
    }
}
