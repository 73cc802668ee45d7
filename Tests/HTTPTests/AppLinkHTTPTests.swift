import Domain
import Foundation
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

/// Universal links: the association file Apple's CDN fetches (JSON, no redirect, the app ids
/// configured) and the pages of the web paths it claims, shown to whoever opens a link without
/// the app, escaped, and telling nothing of an order.
@Suite("Universal links over HTTP")
struct AppLinkHTTPTests {
    static func withLinks(_ body: @escaping @Sendable (any TestClientProtocol, TestDatabase) async throws -> Void) async throws {
        try await withApp(configure: { $0.appLinks = AppLinks(appIDs: ["ABCDE12345.jp.example.shop"], appStoreID: "1234567890") }, body)
    }

    @Test func theAssociationFileNamesTheAppsAndThePathsTheyOpen() async throws {
        try await Self.withLinks { client, _ in
            let response = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(response.status == .ok && response.headers[.contentType] == "application/json")
            let details = try #require((try response.json["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
            #expect(details.count == 1 && details[0]["appIDs"] as? [String] == ["ABCDE12345.jp.example.shop"])
            #expect((details[0]["components"] as? [[String: String]])?.map { $0["/"] } == ["/items/*", "/orders/*"])
            #expect(Set(try response.json.keys) == ["applinks"])
        }
        // With no app configured there is nothing to associate.
        try await withApp { client, _ in
            _ = try await client.send(.get, "/.well-known/apple-app-site-association").expectProblem(404)
        }
    }

    @Test func anItemsPageShowsItEscapedWithTheBannerThatOpensItInTheApp() async throws {
        try await Self.withLinks { client, db in
            let item = try await TestRows.insertItem(db, name: "Mug <script>alert(1)</script> & \"tea\"", price: 1200, stock: 2)
            let id = item.uuidString.lowercased()
            let page = try await client.send(.get, "/items/\(id)")
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(html.contains("<h1>Mug &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;tea&quot;</h1>"))
            #expect(!html.contains("<script>"))
            #expect(html.contains("¥1,200"))
            #expect(html.contains(#"<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=/items/\#(id)">"#))
            #expect(html.contains(#"<meta property="og:title" content="Mug &lt;script&gt;"#))
            #expect(page.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'none'") == true)

            for missing in ["/items/\(UUID())", "/items/not-a-uuid", "/orders/not-a-uuid"] {
                let answer = try await client.send(.get, missing)
                #expect(answer.status == .notFound && answer.headers[.contentType] == "text/html; charset=utf-8", "\(missing)")
            }
        }
    }

    @Test func anOrdersPageIsTheSameForEveryIdAndShowsNothingOfTheOrder() async throws {
        try await Self.withLinks { client, db in
            // A real paid order (2 mugs at 1,200 yen and a pen), and an id no order has.
            let (orderID, _, _, _, _) = try await FulfilmentHTTPTests.paidOrder(client, db)
            let order = try #require(UUID(uuidString: orderID))
            let real = String(buffer: try await client.send(.get, "/orders/\(order)").body)
            let made = UUID()
            let invented = String(buffer: try await client.send(.get, "/orders/\(made)").body)
            #expect(
                real.replacingOccurrences(of: order.uuidString.lowercased(), with: "ID")
                    == invented.replacingOccurrences(of: made.uuidString.lowercased(), with: "ID"))
            #expect(!real.contains("2,700") && !real.contains("2700") && !real.contains("Mug"))
            #expect(real.contains("app-argument=/orders/\(order.uuidString.lowercased())"))
        }
    }
}
