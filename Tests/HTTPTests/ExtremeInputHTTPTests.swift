import Foundation
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PropertyBased
import TestSupport
import Testing

@testable import HTTP

/// Every number, id and body a client can send, at its extremes, into every route that reads one:
/// the answer is a 2xx or a 4xx problem document, never a 5xx (a trap would end the test run).
@Suite("Extreme input over HTTP")
struct ExtremeInputHTTPTests {
    /// JSON number literals and other values at the edges of what decoders and arithmetic meet.
    static let extremes = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "1e308", "-1e308", "1e309", "0.5", "-0", "1e-300", String(repeating: "9", count: 400), "0", "-1", "1", "99", "100",
        "2147483648", "1000000000000", "1000000000001", "\"12\"", "null", "true", "[]", "{}",
    ]

    static let numbers = Gen<String>.oneOf(
        Gen.int(in: 0...(extremes.count - 1)).map { extremes[$0] },
        Gen.int64(in: Int64.min...Int64.max).map { String($0) },
        Gen.double(in: -1e20...1e20).map { "\($0)" })

    /// A 2xx, or a 4xx carrying a problem document.
    static func expectClientAnswer(_ response: TestResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let status = Int(response.status.code)
        #expect(status < 500, "\(what): \(status) \(String(buffer: response.body))", sourceLocation: sourceLocation)
        if status >= 400 {
            #expect(response.headers[.contentType] == "application/problem+json", "\(what)", sourceLocation: sourceLocation)
        }
    }

    /// Every read of a parameter parses the whole query again: thousands of parameters cost a
    /// quarter of a second a request. Past 100 the query is refused before a route reads it.
    @Test func aQueryOfTooManyParametersIsRefusedBeforeItIsRead() async throws {
        try await withApp { client, _ in
            func query(_ count: Int) -> String { (0..<count).map { "x\($0)=1" }.joined(separator: "&") }
            #expect(try await client.send(.get, "/v1/items?\(query(100))").status == .ok)
            let refused = try await client.send(.get, "/v1/items?\(query(101))")
            let problem = try refused.expectProblem(400)
            #expect((problem["detail"] as? String)?.contains("more than 100 parameters") == true)
            try await client.send(.get, "/health?\(query(9000))").expectProblem(400)
        }
    }

    /// A query's escapes decode to UTF-8 or it is refused: `q=%FF` was searched for as some other
    /// text (200, nothing found). Escaped UTF-8 (`%E3%82%B7` is シ) and stray percent signs pass.
    @Test func aQueryWhoseEscapesAreNotUTF8IsRefused() async throws {
        try await withApp { client, _ in
            for query in ["q=%FF", "category=%C3", "q=%E3%82", "q=ok&sort=%80newest", "q=%ED%A0%80"] {
                let problem = try await client.send(.get, "/v1/items?\(query)").expectProblem(400)
                #expect((problem["detail"] as? String)?.contains("not UTF-8") == true, "\(query)")
            }
            for query in ["q=%E3%82%B7", "q=100%", "q=%zz", "q=a+b"] {
                #expect(try await client.send(.get, "/v1/items?\(query)").status == .ok, "\(query)")
            }
        }
    }

    @Test func queryEscapesAreCheckedAsTheyDecode() async {
        await propertyCheck(count: 200, input: Gen.uint8().array(of: 0...12)) { bytes in
            let escaped = bytes.map { String(format: "%%%02X", $0) }.joined()
            #expect(QueryCheckMiddleware.decodesToUTF8("q=" + escaped) == (String(validating: bytes, as: UTF8.self) != nil))
        }
    }

    @Test func numbersInEveryBodyThatTakesOne() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 5)
            await propertyCheck(count: 60, input: Self.numbers) { n in
                let sku = "X-\(UUID().uuidString.prefix(8))"
                let calls: [(HTTPRequest.Method, String, String, String?)] = [
                    (.put, "/v1/cart/items/\(item)", #"{"quantity":\#(n)}"#, token),
                    (
                        .post, "/v1/admin/items",
                        #"{"sku":"\#(sku)","name":"N","category":"c","price":{"amount":\#(n),"currency":"JPY"},"stock":\#(n)}"#, adminToken
                    ),
                    (.patch, "/v1/admin/items/\(item)", #"{"stock":\#(n),"price":{"amount":\#(n)}}"#, adminToken),
                    (.post, "/v1/items/\(item)/reviews", #"{"content":"c","rating":\#(n)}"#, token),
                    (.post, "/v1/wishlist", #"{"item_id":"\#(item)","priority":\#(n),"budget":{"amount":\#(n),"currency":"JPY"}}"#, token),
                    (.patch, "/v1/me", #"{"marketing_opt_in":\#(n)}"#, token),
                ]
                for (method, path, body, bearer) in calls {
                    Self.expectClientAnswer(try await client.send(method, path, json: body, token: bearer), "\(method) \(path) \(n)")
                }
                for path in ["/v1/items", "/v1/items/\(item)/reviews", "/v1/items/\(item)/photos"] {
                    let query = n.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? n
                    Self.expectClientAnswer(try await client.send(.get, "\(path)?limit=\(query)"), "\(path)?limit=\(n)")
                }
            }
        }
    }

    @Test func idsAndBodiesThatAreNotWhatTheySay() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let text = Gen<Character>.latin1.string(of: 0...60)
            await propertyCheck(count: 60, input: text) { junk in
                let id = junk.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x"
                for path in ["/v1/items/\(id)", "/v1/items/\(id)/reviews", "/v1/orders/\(id)", "/v1/wishlist/\(id)"] {
                    Self.expectClientAnswer(try await client.send(.get, path, token: token), path)
                }
                Self.expectClientAnswer(try await client.send(.post, "/v1/customers", json: junk), "sign-up body \(junk.debugDescription)")
            }
            // Bytes that are not UTF-8, and JSON nested past any sane depth.
            let invalid = ByteBuffer(bytes: Array(#"{"email":""#.utf8) + [0xFF, 0xFE, 0xC0] + Array(#"","password":"p","name":"n"}"#.utf8))
            let answer = try await client.execute(
                uri: "/v1/customers", method: .post, headers: [.contentType: "application/json"], body: invalid)
            Self.expectClientAnswer(answer, "invalid UTF-8")
            let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            Self.expectClientAnswer(try await client.send(.put, "/v1/cart/items/\(UUID())", json: deep, token: token), "deep nesting")
        }
    }
}
