import Foundation
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import PropertyBased
import TestSupport
import Testing

/// Forged cursors on every paged route, public ones included: a cursor naming an instant the
/// service never issued is a 400 naming `cursor`, one inside the bounds reaches PostgreSQL and
/// pages normally. Before, `Int64.max` microseconds trapped (the whole process died), `Int64.min`
/// gave a 500 and -300000000000000000 came back from PostgreSQL as a 500.
@Suite("Forged page cursors over HTTP")
struct PageCursorHTTPTests {
    /// A cursor of `micros`: as the catalog writes it (`newest|micros|id`) for `/v1/items`, whose
    /// cursors name their sort, and `micros|id` elsewhere.
    static func token(micros: Int64, for path: String) -> String {
        Data("\(path == "/v1/items" ? "newest|" : "")\(micros)|\(UUID().uuidString.lowercased())".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Every route that takes a cursor, with the token it needs (nil: public).
    static func pagedRoutes(_ db: TestDatabase) async throws -> [(path: String, token: String?)] {
        let (_, token) = try await signedInCustomer(db)
        let item = try await CheckoutHTTPTests.item(db, stock: 1)
        return [
            ("/v1/items", nil), ("/v1/items/\(item)/reviews", nil), ("/v1/items/\(item)/photos", nil),
            ("/v1/wishlist", token), ("/v1/orders", token),
        ]
    }

    static let bounds = -62_135_596_800_000_000 as Int64..<253_402_300_800_000_000

    @Test func cursorsOutsideTheBoundsAreA400OnEveryPagedRoute() async throws {
        try await withApp { client, db in
            let routes = try await Self.pagedRoutes(db)
            let fixed: [Int64] = [
                .max, .max - 1, .min, .min + 1, -300_000_000_000_000_000, Self.bounds.upperBound, Self.bounds.lowerBound - 1,
            ]
            let outside = Gen<Int64>.oneOf(
                Gen.int64(in: Int64.min...(Self.bounds.lowerBound - 1)).eraseToAnySequence(),
                Gen.int64(in: Self.bounds.upperBound...Int64.max).eraseToAnySequence())
            await propertyCheck(count: 20, input: outside) { micros in
                for micros in fixed + [micros] {
                    for (path, token) in routes {
                        let response = try await client.send(.get, "\(path)?cursor=\(Self.token(micros: micros, for: path))", token: token)
                        try response.expectProblem(400)
                        #expect(response.fieldNames == ["cursor"], "\(path) \(micros)")
                    }
                }
            }
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test func cursorsInsideTheBoundsReachPostgreSQLAndPage() async throws {
        try await withApp { client, db in
            let routes = try await Self.pagedRoutes(db)
            let inside = Gen.int64(in: Self.bounds.lowerBound...(Self.bounds.upperBound - 1))
            await propertyCheck(count: 10, input: inside) { micros in
                for micros in [Self.bounds.lowerBound, Self.bounds.upperBound - 1, 0, micros] {
                    for (path, token) in routes {
                        let response = try await client.send(.get, "\(path)?cursor=\(Self.token(micros: micros, for: path))", token: token)
                        #expect(response.status == .ok, "\(path) \(micros): \(String(buffer: response.body))")
                    }
                }
            }
        }
    }

    /// A cursor of the name sort carries the name itself: whatever text a forged one holds is a
    /// 400 naming `cursor` or a page, never a 500. (U+0000 reached PostgreSQL as a bound
    /// parameter, which refused it: a 500.)
    @Test func nameCursorsOfAnyTextAreA400OrAPage() async throws {
        try await withApp { client, _ in
            let names = Gen.character(in: "\u{0}"..."\u{2FF}").string(of: 0...20)
            await propertyCheck(count: 50, input: names) { name in
                for name in ["\u{0}", "a\u{0}b", "|", name] {
                    let token = Data("name|\(name)|\(UUID().uuidString.lowercased())".utf8).base64EncodedString()
                        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                        .replacingOccurrences(of: "=", with: "")
                    let response = try await client.send(.get, "/v1/items?sort=name&cursor=\(token)")
                    if name.contains("\u{0}") {
                        try response.expectProblem(400)
                        #expect(response.fieldNames == ["cursor"])
                    } else {
                        #expect(response.status == .ok, "\(name.debugDescription): \(String(buffer: response.body))")
                    }
                }
            }
        }
    }
}
