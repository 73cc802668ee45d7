import Foundation
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Product images end to end: uploaded by the staff through the same streaming pipeline as
/// review photos, stored at a real media API on loopback, shown with their URL on the item, its
/// first as the list's thumbnail, moved, and deleted with their file.
@Suite("Item images over HTTP")
struct ItemImageHTTPTests {
    static func upload(_ client: any TestClientProtocol, item: String, query: String = "", _ bytes: [UInt8] = ReviewHTTPTests.jpeg)
        async throws -> TestResponse
    {
        let (body, contentType) = ReviewHTTPTests.multipart(field: "image", filename: "shirt.jpg", bytes)
        return try await client.execute(
            uri: "/v1/admin/items/\(item)/images\(query)", method: .post,
            headers: [.contentType: contentType, .authorization: "Bearer \(adminToken)"], body: body)
    }

    @Test func imagesAreAddedShownMovedAndDeletedWithTheirFile() async throws {
        guard let media = ProcessInfo.processInfo.environment["STOREFRONT_TEST_MEDIA_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_MEDIA_URL is not set: run the media tests through ./Tools/test")
        }
        try await withApp(configure: { $0.mediaPublicURL = "https://cdn.example/media" }) { client, _ in
            let created = try await client.send(.post, "/v1/admin/items", json: VariantHTTPTests.tee, token: adminToken)
            let item = try #require(try created.json["id"] as? String)
            let variant = try #require((try created.json["variants"] as? [[String: Any]])?.last?["id"] as? String)

            let first = try await Self.upload(client, item: item, query: "?alt=Navy%20T-shirt")
            #expect(first.status == .created, "\(String(buffer: first.body))")
            let image = try first.json
            let url = try #require(image["url"] as? String)
            #expect(url.hasPrefix("https://cdn.example/media/") && url.hasSuffix(".jpg") && image["alt"] as? String == "Navy T-shirt")
            let second = try await Self.upload(client, item: item, query: "?variant_id=\(variant)", ReviewHTTPTests.png)
            #expect(try second.json["variant_id"] as? String == variant && second.json["position"] as? Int == 1)

            // The file is at the media API under the name in the URL.
            let filename = String(url.split(separator: "/").last!)
            let (data, _) = try await URLSession.shared.data(from: URL(string: "\(media)/photo/\(filename)")!)
            #expect(Array(data) == ReviewHTTPTests.jpeg)

            // Refused before a byte is stored: not an image, another item's variant, no item.
            try await Self.upload(client, item: item, Array("not an image".utf8)).expectProblem(415)
            try await Self.upload(client, item: item, query: "?variant_id=\(UUID())").expectProblem(422)
            try await Self.upload(client, item: UUID().uuidString.lowercased()).expectProblem(404)

            let shown = try await client.send(.get, "/v1/items/\(item)").json
            #expect((shown["images"] as? [[String: Any]])?.count == 2 && shown["thumbnail_url"] as? String == url)
            let listed = try await client.send(.get, "/v1/items?category=apparel").json
            #expect((listed["data"] as? [[String: Any]])?.first?["thumbnail_url"] as? String == url, "the list carries the thumbnail")

            // The second image moves first; the first image, deleted, leaves the media API too.
            let secondID = try #require(try second.json["id"] as? String)
            let moved = try await client.send(.patch, "/v1/admin/images/\(secondID)", json: #"{"position": 0}"#, token: adminToken)
            #expect(try moved.json["position"] as? Int == 0)
            let firstID = try #require(image["id"] as? String)
            #expect(try await client.send(.delete, "/v1/admin/images/\(firstID)", token: adminToken).status == .noContent)
            try await client.send(.delete, "/v1/admin/images/\(firstID)", token: adminToken).expectProblem(404)
            let after = try await client.send(.get, "/v1/items/\(item)").json
            #expect((after["images"] as? [[String: Any]])?.map { $0["id"] as? String } == [secondID])
            let gone = try await URLSession.shared.data(from: URL(string: "\(media)/photo/\(filename)")!).1 as? HTTPURLResponse
            #expect(gone?.statusCode == 404, "the file is deleted at the media API")
        }
    }
}
