import Foundation
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Postgres
import TestSupport
import Testing
import Translator

/// Reviews and photos end to end: the whole app on real PostgreSQL, storing photos at the real
/// media server `./Tools/test` starts (`Tools/media-server`).
@Suite("Reviews and photos over HTTP")
struct ReviewHTTPTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 4000)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)

    static func multipart(field: String = "photo", filename: String = "me.jpg", type: String = "image/jpeg", _ bytes: [UInt8])
        -> (body: ByteBuffer, contentType: String)
    {
        let boundary = "test-\(UUID().uuidString)"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhello\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\n".utf8)
        body += Array("Content-Type: \(type)\r\n\r\n".utf8) + bytes + Array("\r\n--\(boundary)--\r\n".utf8)
        return (ByteBuffer(bytes: body), "multipart/form-data; boundary=\(boundary)")
    }

    static func upload(
        _ client: any TestClientProtocol, review: String, token: String, field: String = "photo", filename: String = "me.jpg",
        _ bytes: [UInt8] = jpeg
    ) async throws -> TestResponse {
        let (body, contentType) = multipart(field: field, filename: filename, bytes)
        return try await client.execute(
            uri: "/v1/reviews/\(review)/photos", method: .post,
            headers: [.contentType: contentType, .authorization: "Bearer \(token)"], body: body)
    }

    static func postReview(_ client: any TestClientProtocol, item: UUID, token: String, rating: Int = 4) async throws -> String {
        let response = try await client.send(
            .post, "/v1/items/\(item)/reviews", json: #"{"content":"Sturdy mug","rating":\#(rating)}"#, token: token)
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return try #require(try response.json["id"] as? String)
    }

    static var mediaDirectory: String { ProcessInfo.processInfo.environment["STOREFRONT_TEST_MEDIA_DIRECTORY"] ?? "/nonexistent" }

    @Test func aNulCharacterIsRefusedWhereverItIs() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            // What the fuzzer sent: before, the text reached PostgreSQL cut short at U+0000 (here
            // empty, so a check constraint failed and the answer was 500).
            for (body, field) in [
                (#"{"content":"\u0000\u0011i","rating":5}"#, "content"),
                (#"{"content":"fine","rating":5,"extra\u0000":1}"#, "extra\u{0}"),
                (#"{"rating":5,"content":"a\\u0000 is an escape, \u0000 is not"}"#, "content"),
            ] {
                let response = try await client.send(.post, "/v1/items/\(mug)/reviews", json: body, token: token)
                try response.expectProblem(422)
                #expect(response.fieldNames == [field])
            }
            // The same in UTF-16, which the decoder reads too: it passed the check and was a 500.
            let utf16 = Array(#"{"content":"x\u0000y","rating":5}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let wide = try await client.execute(
                uri: "/v1/items/\(mug)/reviews", method: .post,
                headers: [.contentType: "application/json", .authorization: "Bearer \(token)"], body: ByteBuffer(bytes: utf16))
            try wide.expectProblem(400)
            // A backslash followed by "u0000" is text like any other.
            let posted = try await client.send(
                .post, "/v1/items/\(mug)/reviews", json: #"{"content":"C:\\u0000 is a path","rating":5}"#, token: token)
            #expect(posted.status == .created)
            #expect(try posted.decode(ReviewModel.self).content == #"C:\u0000 is a path"#)
        }
    }

    @Test func postAReviewThenListItWithTheSummary() async throws {
        try await withApp { client, db in
            let (customerID, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let posted = try await client.send(
                .post, "/v1/items/\(mug)/reviews", json: #"{"content":"Sturdy mug","rating":4}"#, token: token)
            #expect(posted.status == .created)
            let review = try posted.json
            // Public: nothing in a review names its author's account.
            #expect(Set(review.keys) == ["id", "item_id", "content", "rating", "photos", "created_at"])
            #expect(!String(buffer: posted.body).contains(customerID.uuidString.lowercased()))
            #expect(try posted.decode(ReviewModel.self).photos.isEmpty)

            try await client.send(.post, "/v1/items/\(mug)/reviews", json: #"{"content":"Again","rating":5}"#, token: token).expectProblem(
                409)
            let (_, other) = try await signedInCustomer(db)
            _ = try await Self.postReview(client, item: mug, token: other, rating: 5)

            let listed = try await client.send(.get, "/v1/items/\(mug)/reviews")
            #expect(!String(buffer: listed.body).contains(customerID.uuidString.lowercased()))
            let list = try await client.send(.get, "/v1/items/\(mug)/reviews?limit=1").decode(ReviewListModel.self)
            #expect(list.data.count == 1 && list.nextCursor != nil)
            #expect(list.ratingSummary.count == 2 && list.ratingSummary.average == 4.5)
            #expect(list.ratingSummary.histogram == ["1": 0, "2": 0, "3": 0, "4": 1, "5": 1])
            let item = try await client.send(.get, "/v1/items/\(mug)").decode(ItemModel.self)
            #expect(item.reviewCount == 2 && item.ratingAverage == 4.5)
        }
    }

    @Test func badReviewsAreRefused() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let bad = try await client.send(.post, "/v1/items/\(mug)/reviews", json: #"{"content":"","rating":0}"#, token: token)
            try bad.expectProblem(422)
            #expect(bad.fieldNames == ["content", "rating"])
            try await client.send(.post, "/v1/items/\(UUID())/reviews", json: #"{"content":"Hm","rating":3}"#, token: token).expectProblem(
                404)
            try await client.send(.post, "/v1/items/\(mug)/reviews", json: #"{"content":"Hm","rating":3}"#).expectProblem(401)
            try await client.send(.get, "/v1/items/\(UUID())/reviews").expectProblem(404)
            let empty = try await client.send(.get, "/v1/items/\(mug)/reviews").json
            #expect((empty["rating_summary"] as? [String: Any])?["average"] is NSNull)
            #expect(try await client.send(.get, "/v1/items/\(mug)").json["rating_average"] is NSNull)
        }
    }

    @Test func uploadAPhotoStoredUnderOurOwnName() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await Self.postReview(client, item: mug, token: token)
            let response = try await Self.upload(client, review: review, token: token, filename: "../../etc/passwd")
            #expect(response.status == .created, "\(String(buffer: response.body))")
            #expect(Set(try response.json.keys) == ["id", "review_id", "filename", "content_type", "size", "created_at", "url"])
            let photo = try response.decode(ReviewPhotoModel.self)
            #expect(photo.contentType == "image/jpeg" && photo.size == Self.jpeg.count)
            let filename = photo.filename
            #expect(!filename.contains("/") && !filename.contains("passwd") && filename.hasSuffix(".jpg"))
            // Where the media API publishes it: MEDIA_PUBLIC_URL, by default its own /photo.
            #expect(
                try response.json["url"] as? String
                    == "\(ProcessInfo.processInfo.environment["STOREFRONT_TEST_MEDIA_URL"] ?? "")/photo/\(filename)")
            // The media server holds exactly the bytes sent, in its folder.
            let stored = try Data(contentsOf: URL(fileURLWithPath: Self.mediaDirectory).appendingPathComponent(filename))
            #expect(Array(stored) == Self.jpeg)

            let listed = try await client.send(.get, "/v1/items/\(mug)/reviews").decode(ReviewListModel.self)
            #expect(listed.data.first?.photos.map(\.filename) == [filename])
            let gallery = try await client.send(.get, "/v1/items/\(mug)/photos").decode(PageModel<ItemPhotoModel>.self)
            #expect(gallery.data.map(\.id) == [photo.id] && gallery.data.map(\.itemID) == [mug.uuidString.lowercased()])
            #expect(gallery.data.map(\.url) == [try response.json["url"] as? String], "the gallery shows where the photo is published")
            #expect(gallery.nextCursor == nil)
        }
    }

    /// Before, photos were republished with their Exif, GPS position included.
    @Test func aPhotoIsPublishedWithoutItsLocation() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await Self.postReview(client, item: mug, token: token)
            let exif = Array("Exif\u{0}\u{0}GPSLatitude 35.6895N".utf8)
            let app1 = [0xFF, 0xE1, 0, UInt8(exif.count + 2)] + exif
            let scan: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0] + Array(repeating: 0x42, count: 2000) + [0xFF, 0xD9]
            let response = try await Self.upload(client, review: review, token: token, [0xFF, 0xD8] + app1 + scan)
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let photo = try response.json
            let filename = try #require(photo["filename"] as? String)
            let stored = try Data(contentsOf: URL(fileURLWithPath: Self.mediaDirectory).appendingPathComponent(filename))
            #expect(Array(stored) == [0xFF, 0xD8] + scan)
            #expect(photo["size"] as? Int == 2 + scan.count)
        }
    }

    @Test func badUploadsAreRefusedAndNothingIsRecorded() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await Self.postReview(client, item: mug, token: token)

            let wrongField = try await Self.upload(client, review: review, token: token, field: "picture")
            try wrongField.expectProblem(422)
            #expect(wrongField.fieldNames == ["photo"])
            try await Self.upload(client, review: review, token: token, []).expectProblem(422)
            let text = try await Self.upload(client, review: review, token: token, filename: "notes.jpg", Array("just text, honest".utf8))
            try text.expectProblem(415)
            let huge = [UInt8](repeating: 0xFF, count: 10 * 1024 * 1024 + 1)
            try await Self.upload(client, review: review, token: token, huge).expectProblem(413)
            try await client.send(.post, "/v1/reviews/\(review)/photos", json: "{}", token: token).expectProblem(415)
            try await Self.upload(client, review: UUID().uuidString, token: token).expectProblem(404)
            let (_, stranger) = try await signedInCustomer(db)
            try await Self.upload(client, review: review, token: stranger).expectProblem(403)

            let rows = try await db.pool.query("SELECT count(*)::int AS n FROM review_photos").rows
            #expect(try rows[0].decode("n") as Int == 0)
        }
    }

    @Test func aReviewHoldsAtMostFivePhotos() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await Self.postReview(client, item: mug, token: token)
            for index in 0..<5 {
                let response = try await Self.upload(client, review: review, token: token, index.isMultiple(of: 2) ? Self.jpeg : Self.png)
                #expect(response.status == .created)
            }
            try await Self.upload(client, review: review, token: token).expectProblem(409)
            let rows = try await db.pool.query("SELECT count(*)::int AS n FROM review_photos WHERE review_id = $1::uuid", review).rows
            #expect(try rows[0].decode("n") as Int == 5)
        }
    }

    /// Before, 50 uploads racing for a review's last place gave one 201 and 49 x 409, but all 50
    /// files were stored at the media API and nothing deleted them. Now the place is taken
    /// before the upload: the losers never reach the media API.
    @Test func uploadsRacingForTheLastPlaceLeaveNoOrphanedFiles() async throws {
        // One customer's 30 uploads race for the review's place, not for the instance's.
        try await withApp(configure: {
            $0.uploadMaxPerCustomer = 30; $0.uploadMaxPerAddress = 30
        }) { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await Self.postReview(client, item: mug, token: token)
            for _ in 0..<4 { #expect(try await Self.upload(client, review: review, token: token).status == .created) }
            // Bytes no other test sends, to find this test's files among the media server's.
            let marker = Array(UUID().uuidString.utf8)
            let photo = [0xFF, 0xD8, 0xFF, 0xE0] + marker + Array(repeating: 0x42, count: 1000)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<30 {
                    group.addTask { Int(try await Self.upload(client, review: review, token: token, photo).status.code) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.allSatisfy { [201, 409, 503].contains($0) }, "\(statuses)")
            let directory = URL(fileURLWithPath: Self.mediaDirectory)
            let stored = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { name in
                (try? Data(contentsOf: directory.appendingPathComponent(name))).map { Array($0) == photo } ?? false
            }
            #expect(stored.count == 1, "files stored at the media API: \(stored)")
            let slots = try await db.pool.query("SELECT count(*)::int AS n FROM review_photo_slots").rows
            #expect(try slots[0].decode("n") as Int == 0, "no place left taken")
        }
    }

    @Test func aMediaAPIThatIsDownIs502AndTheReviewStaysAsItWas() async throws {
        try await withApp(mediaURL: "http://127.0.0.1:\(freePort())") { client, db in
            let (_, token) = try await signedInCustomer(db)
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await Self.postReview(client, item: mug, token: token)
            try await Self.upload(client, review: review, token: token).expectProblem(502)
            let listed = try await client.send(.get, "/v1/items/\(mug)/reviews").json
            #expect(((listed["data"] as? [[String: Any]])?.first?["photos"] as? [Any])?.isEmpty == true)
        }
    }

    /// Twenty customers review one item at once: the item's count and average are exact.
    @Test func concurrentReviewsKeepTheItemsRatingExact() async throws {
        try await withApp { client, db in
            let mug = try await CheckoutHTTPTests.item(db, stock: 1)
            var customers: [String] = []
            for _ in 0..<20 { customers.append(try await signedInCustomer(db).token) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, token) in customers.enumerated() {
                    group.addTask { _ = try await Self.postReview(client, item: mug, token: token, rating: index % 5 + 1) }
                }
                try await group.waitForAll()
            }
            let item = try await client.send(.get, "/v1/items/\(mug)").json
            #expect(item["review_count"] as? Int == 20 && item["rating_average"] as? Double == 3.0)
        }
    }
}
