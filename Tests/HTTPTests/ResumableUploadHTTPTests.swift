import Crypto
import Foundation
import HTTP
import HTTPTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveScenes
import Logging
import NIOCore
import Postgres
import Scenes
import TestSupport
import Testing

/// Resumable photo uploads (draft-ietf-httpbis-resumable-upload) end to end: two instances of
/// the whole app on one real PostgreSQL, each on a loopback port, the photos stored at the real
/// media server. Uploads are cut with bare connections at random offsets and resumed on the
/// other instance.
@Suite("Resumable photo uploads over HTTP")
struct ResumableUploadHTTPTests {
    /// Two instances on one database, as behind the load balancer of `Tools/cluster`.
    static func withTwoInstances(
        configure: @escaping @Sendable (inout AppConfig) -> Void = { _ in },
        _ body: @escaping @Sendable (Instance, Instance, TestDatabase) async throws -> Void
    ) async throws {
        try await TestDatabase.with { db in
            let second = PostgresPool(.init(connection: .init(conninfo: db.url), maxConnections: 4, acquireTimeout: .seconds(10)))
            do {
                try await withTaskExecutorPreference(PostgresEventLoop.shared) {
                    try await Self.application(db, db.pool, configure).test(.live) { a in
                        try await Self.application(db, second, configure).test(.live) { b in
                            try await body(
                                Instance(client: a, port: try #require(a.port)), Instance(client: b, port: try #require(b.port)), db)
                        }
                    }
                }
            } catch {
                await second.shutdown()
                throw error
            }
            await second.shutdown()
        }
    }

    static func application(
        _ db: TestDatabase, _ pool: PostgresPool, _ configure: (inout AppConfig) -> Void
    ) throws -> some ApplicationProtocol {
        var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
        config.port = 0
        config.mediaURL = ProcessInfo.processInfo.environment["STOREFRONT_TEST_MEDIA_URL"]
        configure(&config)
        return try buildApplication(AppResources(config: config, pool: pool, logger: Logger(label: "test")))
    }

    struct Instance: Sendable {
        let client: any TestClientProtocol
        let port: Int
    }

    static func photo(_ size: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<max(0, size - 8)).map { _ in UInt8.random(in: 0...255) }
    }

    static func sha256(_ bytes: some Sequence<UInt8>) -> String {
        SHA256.hash(data: Array(bytes)).map { String(format: "%02x", $0) }.joined()
    }

    /// The headers saying whether these bytes end the upload, in `version`'s words.
    static func completeness(_ complete: Bool, version: Int) -> (String, String) {
        version >= 5 ? ("Upload-Complete", complete ? "?1" : "?0") : ("Upload-Incomplete", complete ? "?0" : "?1")
    }

    /// Starts an upload of `photo` on `instance` and cuts it after `cut` bytes of its body;
    /// returns where to resume, from the interim answer.
    static func startAndCut(
        _ instance: Instance, review: String, token: String, photo: [UInt8], cut: Int, version: Int
    ) async throws -> String {
        let connection = try RawHTTPConnection(port: instance.port)
        try await connection.head(
            "POST", "/v1/reviews/\(review)/photos",
            headers: [
                ("Authorization", "Bearer \(token)"), ("Upload-Draft-Interop-Version", "\(version)"),
                completeness(true, version: version), ("Content-Type", "image/png"), ("Content-Length", "\(photo.count)"),
            ])
        let interim = try await connection.readHead()
        #expect(interim.status == 104)
        #expect(interim.headers["upload-draft-interop-version"] == "\(version)")
        let location = try #require(interim.headers["location"])
        #expect(location.hasPrefix("/v1/uploads/"))
        try await connection.write(Array(photo[..<cut]))
        try await Task.sleep(for: .milliseconds(500))  // see appendAndCut
        connection.cut()
        return location
    }

    /// Appends from `offset` on `instance` and cuts the connection after `cut` of the bytes.
    static func appendAndCut(
        _ instance: Instance, location: String, token: String, photo: [UInt8], offset: Int, cut: Int, version: Int
    ) async throws {
        let connection = try RawHTTPConnection(port: instance.port)
        var headers = [
            ("Authorization", "Bearer \(token)"), ("Upload-Draft-Interop-Version", "\(version)"), ("Upload-Offset", "\(offset)"),
            completeness(true, version: version), ("Content-Length", "\(photo.count - offset)"),
        ]
        if version >= 6 { headers.append(("Content-Type", "application/partial-upload")) }
        try await connection.head("PATCH", location, headers: headers)
        try await connection.write(Array(photo[offset..<cut]))
        // A reset drops what the instance has not read yet: give it time to read every byte sent,
        // as the test expects the upload to hold them all (with the whole suite running, 50 ms
        // was not always enough).
        try await Task.sleep(for: .milliseconds(500))
        connection.cut()
    }

    /// `HEAD`: the offset the upload holds, once the instance that took the cut request has
    /// stored what arrived (it sees the cut a moment later; a request cut at its first byte may
    /// not have started the upload yet). Up to 10 s: with the whole suite running, the instance
    /// has taken more than the 2 s this waited before.
    static func offset(_ instance: Instance, location: String, token: String, atLeast: Int, version: Int) async throws -> (
        Int, TestResponse
    ) {
        for _ in 0..<500 {
            let response = try await instance.client.execute(
                uri: location, method: .head, headers: [.authorization: "Bearer \(token)", .uploadVersion: "\(version)"], body: nil)
            guard response.status == .noContent else {
                #expect(response.status == .notFound)
                try await Task.sleep(for: .milliseconds(20))
                continue
            }
            let offset = try #require(response.headers[.uploadOffset].flatMap(Int.init))
            if offset >= atLeast { return (offset, response) }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the upload never held \(atLeast) bytes")
        throw CancellationError()
    }

    static func patch(
        _ instance: Instance, location: String, token: String, bytes: ArraySlice<UInt8>, offset: Int, complete: Bool, version: Int
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .uploadVersion: "\(version)", .uploadOffset: "\(offset)"]
        let (name, value) = completeness(complete, version: version)
        headers[HTTPField.Name(name)!] = value
        if version >= 6 { headers[.contentType] = "application/partial-upload" }
        return try await instance.client.execute(uri: location, method: .patch, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    static func photos(_ db: TestDatabase, review: String) async throws -> [(id: UUID, filename: String, size: Int)] {
        try await db.pool.query("SELECT id, filename, size FROM review_photos WHERE review_id = $1::uuid", review).rows.map {
            (try $0.decode("id"), try $0.decode("filename"), try $0.decode("size"))
        }
    }

    @Test(
        "an upload cut at random offsets, resumed on the other instance each time, arrives byte for byte once, in interop versions 3, 5 and 6",
        arguments: [3, 5, 6])
    func cutAtRandomOffsetsAndResumedElsewhere(version: Int) async throws {
        try await Self.withTwoInstances { a, b, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            let photo = Self.photo(Int.random(in: 300_000...900_000))
            var cut = Int.random(in: 0...(photo.count / 3))
            let location = try await Self.startAndCut(a, review: review, token: token, photo: photo, cut: cut, version: version)
            // Two more cuts, each resumed on the instance the last one did not reach.
            var offset = 0
            for (index, instance) in [b, a].enumerated() {
                (offset, _) = try await Self.offset(instance, location: location, token: token, atLeast: cut, version: version)
                #expect(offset == cut)
                cut = Int.random(in: offset...(offset + (photo.count - offset) / 2))
                try await Self.appendAndCut(
                    instance, location: location, token: token, photo: photo, offset: offset, cut: cut, version: version)
                _ = index
            }
            let (last, state) = try await Self.offset(b, location: location, token: token, atLeast: cut, version: version)
            #expect(last == cut)
            #expect(state.headers[.uploadLength] == "\(photo.count)")
            #expect(state.headers[.cacheControl] == "no-store")
            let done = try await Self.patch(
                b, location: location, token: token, bytes: photo[last...], offset: last, complete: true, version: version)
            #expect(done.status == .created, "\(String(buffer: done.body))")
            #expect(done.headers[.uploadOffset] == "\(photo.count)")
            let created = try done.json
            let filename = try #require(created["filename"] as? String)
            let stored = try #require(FileManager.default.contents(atPath: "\(ReviewHTTPTests.mediaDirectory)/\(filename)"))
            #expect(Self.sha256(stored) == Self.sha256(photo))
            #expect(created["size"] as? Int == photo.count)
            // Once: asked again (its answer lost), it answers the same and records nothing more.
            let again = try await Self.patch(
                a, location: location, token: token, bytes: [], offset: photo.count, complete: true, version: version)
            #expect(again.status == .created)
            #expect(String(buffer: again.body) == String(buffer: done.body))
            let recorded = try await Self.photos(db, review: review)
            #expect(recorded.count == 1 && recorded.first?.filename == filename)
            let head = try await a.client.execute(
                uri: location, method: .head, headers: [.authorization: "Bearer \(token)", .uploadVersion: "\(version)"], body: nil)
            let (name, value) = Self.completeness(true, version: version)
            #expect(head.headers[HTTPField.Name(name)!] == value)
        }
    }

    @Test(
        "an upload started empty, sent in pieces and finished on either instance gives the route's answer; a PATCH at another offset is a 409 with the offset"
    )
    func startedEmpty() async throws {
        try await Self.withTwoInstances(configure: { $0.resumableUploadInterimResponses = false }) { a, b, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            let photo = Self.photo(600_000)
            // No interim answer: the 201 of an empty request says where the upload is.
            let created = try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0", .uploadLength: "\(photo.count)"],
                body: ByteBuffer())
            #expect(created.status == .created)
            #expect(created.headers[.uploadOffset] == "0" && created.headers[.uploadComplete] == "?0")
            let location = try #require(created.headers[.location])
            let first = try await Self.patch(
                a, location: location, token: token, bytes: photo[..<250_000], offset: 0, complete: false, version: 6)
            #expect(first.status == .noContent && first.headers[.uploadOffset] == "250000")
            let stale = try await Self.patch(
                b, location: location, token: token, bytes: photo[..<10], offset: 0, complete: false, version: 6)
            try stale.expectProblem(409)
            #expect(stale.headers[.uploadOffset] == "250000")
            let ahead = try await Self.patch(
                b, location: location, token: token, bytes: photo[300_000...], offset: 300_000, complete: true, version: 6)
            try ahead.expectProblem(409)
            let rest = try await Self.patch(
                b, location: location, token: token, bytes: photo[250_000...], offset: 250_000, complete: true, version: 6)
            #expect(rest.status == .created, "\(String(buffer: rest.body))")
            let filename = try #require(try rest.json["filename"] as? String)
            let stored = try #require(FileManager.default.contents(atPath: "\(ReviewHTTPTests.mediaDirectory)/\(filename)"))
            #expect(Self.sha256(stored) == Self.sha256(photo))
            // Bytes of a finished upload are refused, not appended.
            let after = try await Self.patch(
                a, location: location, token: token, bytes: [1, 2], offset: photo.count, complete: true, version: 6)
            try after.expectProblem(409)
            #expect(after.headers[.uploadOffset] == "\(photo.count)" && after.headers[.uploadComplete] == "?1")
            #expect(try await Self.photos(db, review: review).count == 1)
        }
    }

    @Test("appends racing at one offset on both instances: one lands, the others are told the offset, the photo arrives once")
    func racingAppends() async throws {
        try await Self.withTwoInstances(configure: { $0.resumableUploadInterimResponses = false }) { a, b, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            let photo = Self.photo(400_000)
            let created = try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"], body: ByteBuffer())
            let location = try #require(created.headers[.location])
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<6 {
                    let instance = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        Int(
                            try await Self.patch(
                                instance, location: location, token: token, bytes: photo[...], offset: 0, complete: true, version: 6
                            ).status.code)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0 == 201 }.count >= 1, "\(answers)")
            #expect(answers.allSatisfy { $0 == 201 || $0 == 409 }, "\(answers)")
            let recorded = try await Self.photos(db, review: review)
            #expect(recorded.count == 1 && recorded.first?.size == photo.count)
        }
    }

    @Test(
        "limits hold for resumed uploads: announced or sent size, type by leading bytes, a review's photo count, open uploads per customer")
    func limits() async throws {
        try await Self.withTwoInstances(configure: { $0.resumableUploadInterimResponses = false }) { a, b, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            func start(length: Int? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"]
                if let length { headers[.uploadLength] = "\(length)" }
                return try await a.client.execute(uri: "/v1/reviews/\(review)/photos", method: .post, headers: headers, body: ByteBuffer())
            }
            try await start(length: 10_485_761).expectProblem(413)
            // Past the announced size: the upload is cancelled.
            let small = try #require(try await start(length: 100).headers[.location])
            let past = try await Self.patch(
                b, location: small, token: token, bytes: Self.photo(101)[...], offset: 0, complete: true, version: 6)
            #expect(try past.expectProblem(413)["errors"] != nil)
            try await b.client.execute(uri: small, method: .head, headers: [.authorization: "Bearer \(token)"], body: nil).expectStatus(404)
            // Past the route's limit without a size announced: MatrixResumableUploadTests (a 4 KiB route).
            // Not an image: the route's own refusal, kept as the upload's answer.
            let text = try #require(try await start().headers[.location])
            let refused = try await Self.patch(
                b, location: text, token: token, bytes: Array("just some text, no image".utf8)[...], offset: 0, complete: true, version: 6)
            try refused.expectProblem(415)
            // A review that filled up while the upload was open refuses it at the end.
            let late = try #require(try await start().headers[.location])
            for _ in 0..<5 { #expect(try await ReviewHTTPTests.upload(a.client, review: review, token: token).status == .created) }
            let full = try await Self.patch(
                a, location: late, token: token, bytes: Self.photo(2000)[...], offset: 0, complete: true, version: 6)
            try full.expectProblem(409)
            // And a full review refuses a new upload before reading a byte.
            try await start().expectProblem(409)
            #expect(try await Self.photos(db, review: review).count == 5)

            let second = try await ReviewHTTPTests.postReview(
                a.client, item: try await CheckoutHTTPTests.item(db, stock: 1), token: token)
            // Ten unfinished uploads are kept: each one more drops the one untouched longest.
            var locations: [String] = []
            for _ in 0..<12 {
                let response = try await a.client.execute(
                    uri: "/v1/reviews/\(second)/photos", method: .post,
                    headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"], body: ByteBuffer())
                #expect(response.status == .created)
                locations.append(try #require(response.headers[.location]))
            }
            let open: Int = try await db.pool.query(
                "SELECT count(*)::int AS n FROM resumable_uploads WHERE state = 'open'"
            ).rows[0].decode("n")
            #expect(open == 10)
            try await b.client.execute(uri: locations[11], method: .head, headers: [.authorization: "Bearer \(token)"], body: nil)
                .expectStatus(204)
        }
    }

    @Test("only its customer reaches an upload: others get 404, no session 401; DELETE cancels it; no client names an upload")
    func ownership() async throws {
        try await Self.withTwoInstances(configure: { $0.resumableUploadInterimResponses = false }) { a, b, db in
            let (_, token) = try await signedInCustomer(db)
            let (_, other) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            // The header that carries the id the interim answer gave is the server's own: one a
            // client sends is dropped on arrival, interim answers on or off.
            let chosen = UUID().uuidString.lowercased()
            let created = try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [
                    .authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0",
                    HTTPField.Name("Storefront-Upload-ID")!: chosen,
                ],
                body: ByteBuffer(bytes: [1, 2, 3]))
            let location = try #require(created.headers[.location])
            #expect(!location.contains(chosen))
            for method in [HTTPRequest.Method.head, .delete] {
                try await b.client.execute(uri: location, method: method, headers: [.authorization: "Bearer \(other)"], body: nil)
                    .expectStatus(404)
                try await b.client.execute(uri: location, method: method, headers: [:], body: nil).expectStatus(401)
            }
            try await Self.patch(b, location: location, token: other, bytes: [4][...], offset: 3, complete: true, version: 6).expectProblem(
                404)
            // Someone else's review: refused before an upload starts.
            try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(other)", .uploadVersion: "6", .uploadComplete: "?0"], body: ByteBuffer()
            ).expectProblem(403)
            try await b.client.execute(uri: location, method: .delete, headers: [.authorization: "Bearer \(token)"], body: nil)
                .expectStatus(204)
            try await a.client.execute(uri: location, method: .head, headers: [.authorization: "Bearer \(token)"], body: nil).expectStatus(
                404)
            #expect(try await db.pool.query("SELECT count(*)::int AS n FROM resumable_upload_chunks").rows[0].decode("n") as Int == 0)
        }
    }

    @Test("a resumable upload's photo loses its Exif (GPS position) as a multipart one does: the stored files are the same")
    func metadataDropped() async throws {
        try await Self.withTwoInstances(configure: { $0.resumableUploadInterimResponses = false }) { a, b, db in
            let (_, token) = try await signedInCustomer(db)
            let review = try await ReviewHTTPTests.postReview(a.client, item: try await CheckoutHTTPTests.item(db, stock: 1), token: token)
            let exif: [UInt8] = [0xFF, 0xE1, 0x00, 0x10] + Array("Exif\0\0GPS here".utf8)
            let image: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 2, 3, 4, 5, 6] + (0..<3000).map { UInt8($0 % 251) }
            let photo: [UInt8] = [0xFF, 0xD8] + exif + image
            let created = try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"],
                body: ByteBuffer(bytes: photo[..<10]))
            let location = try #require(created.headers[.location])
            let done = try await Self.patch(
                b, location: location, token: token, bytes: photo[10...], offset: 10, complete: true, version: 6)
            #expect(done.status == .created, "\(String(buffer: done.body))")
            let multipart = try await ReviewHTTPTests.upload(a.client, review: review, token: token, photo)
            var stored: [[UInt8]] = []
            for answer in [done, multipart] {
                let filename = try #require(try answer.json["filename"] as? String)
                stored.append(Array(try #require(FileManager.default.contents(atPath: "\(ReviewHTTPTests.mediaDirectory)/\(filename)"))))
                #expect(try answer.json["size"] as? Int == 2 + image.count)
            }
            #expect(stored[0] == [0xFF, 0xD8] + image)
            #expect(stored[0] == stored[1])
        }
    }

    @Test("no interim answer goes to a request without a session, nor into another request's answer on a pipelined connection")
    func interimAnswersOnlyWhereTheyFit() async throws {
        try await Self.withTwoInstances { a, _, db in
            let (_, token) = try await signedInCustomer(db)
            let review = try await ReviewHTTPTests.postReview(a.client, item: try await CheckoutHTTPTests.item(db, stock: 1), token: token)
            let start = [("Upload-Draft-Interop-Version", "6"), ("Upload-Complete", "?0"), ("Content-Length", "0")]
            let anonymous = try RawHTTPConnection(port: a.port)
            try await anonymous.head("POST", "/v1/reviews/\(review)/photos", headers: start)
            #expect(try await anonymous.readHead().status == 401)
            // A health check, and behind it on the same connection an upload's start.
            let pipelined = try RawHTTPConnection(port: a.port)
            try await pipelined.write(
                Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
                    + Array(
                        ("POST /v1/reviews/\(review)/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                            + start.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n").utf8))
            let health = try await pipelined.readHead()
            #expect(health.status == 200)
            _ = try await pipelined.read(try #require(health.headers["content-length"].flatMap(Int.init)))
            let started = try await pipelined.readHead()
            #expect(started.status == 201)
            #expect(started.headers["location"]?.hasPrefix("/v1/uploads/") == true)
        }
    }

    @Test("headers this service cannot read are refused with a problem naming them")
    func malformedHeaders() async throws {
        try await Self.withTwoInstances(configure: { $0.resumableUploadInterimResponses = false }) { a, _, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            let created = try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"], body: ByteBuffer())
            let location = try #require(created.headers[.location])
            let cases: [(HTTPFields, String, Int)] = [
                ([.uploadVersion: "4", .uploadOffset: "0"], "Upload-Draft-Interop-Version", 400),
                ([.uploadVersion: "6", .uploadOffset: "abc", .contentType: "application/partial-upload"], "Upload-Offset", 400),
                ([.uploadVersion: "6", .uploadOffset: "-1", .contentType: "application/partial-upload"], "Upload-Offset", 400),
                (
                    [.uploadVersion: "6", .uploadOffset: "1234567890123456", .contentType: "application/partial-upload"], "Upload-Offset",
                    400
                ),
                ([.uploadVersion: "5", .uploadOffset: "0"], "Upload-Complete", 400),
                (
                    [.uploadVersion: "6", .uploadOffset: "0", .uploadComplete: "yes", .contentType: "application/partial-upload"],
                    "Upload-Complete", 400
                ),
                ([.uploadVersion: "6", .contentType: "application/partial-upload"], "Upload-Offset", 400),
                ([.uploadOffset: "0"], "Upload-Draft-Interop-Version", 400),
                ([.uploadVersion: "6", .uploadOffset: "0", .uploadComplete: "?0"], "Content-Type", 415),
                ([.uploadVersion: "6", .uploadOffset: "0", .uploadComplete: "?0", .contentType: "image/png"], "Content-Type", 415),
            ]
            for (fields, field, status) in cases {
                var headers = fields
                headers[.authorization] = "Bearer \(token)"
                let response = try await a.client.execute(uri: location, method: .patch, headers: headers, body: ByteBuffer(bytes: [1]))
                try response.expectProblem(status)
                #expect(response.fieldNames == [field], "\(fields)")
            }
            try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0", .uploadOffset: "5"],
                body: ByteBuffer()
            ).expectProblem(400)
        }
    }

    @Test(
        "unfinished uploads hold at most RESUMABLE_UPLOAD_MAX_PENDING_MIB together: past it 503 keeps what was stored and says where to resume; once space frees, the upload finishes"
    )
    func pendingBytesAreBounded() async throws {
        try await Self.withTwoInstances(configure: {
            $0.resumableUploadInterimResponses = false; $0.resumableUploadPendingLimit = 1 << 20
        }) {
            a, b, db in
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            func start(_ instance: Instance, _ photo: [UInt8]) async throws -> (token: String, response: TestResponse) {
                let (_, token) = try await signedInCustomer(db)
                let review = try await ReviewHTTPTests.postReview(instance.client, item: item, token: token)
                let response = try await instance.client.execute(
                    uri: "/v1/reviews/\(review)/photos", method: .post,
                    headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"],
                    body: ByteBuffer(bytes: photo))
                return (token, response)
            }
            let (first, started) = try await start(a, Self.photo(700 << 10))
            try started.expectStatus(201)
            let photo = Self.photo(700 << 10)
            let (second, refused) = try await start(b, photo)
            try refused.expectStatus(503)
            #expect(refused.headers[.contentType] == "application/problem+json")
            #expect(String(buffer: refused.body).contains("/problems/upload-storage-full"))
            #expect(refused.headers[.retryAfter] != nil)
            let kept = 256 << 10  // one piece (ResumableUploadRules.chunkSize)
            #expect(refused.headers[.uploadOffset] == "\(kept)", "the piece within the bound is kept")
            let location = try #require(refused.headers[.location])
            let held = try await db.pool.query("SELECT COALESCE(sum(length(bytes)), 0)::int AS n FROM resumable_upload_chunks").rows[0]
            #expect(try held.decode("n", as: Int.self) <= 1 << 20)
            // The first customer gives up their upload: its space is free again.
            try await a.client.execute(
                uri: try #require(started.headers[.location]), method: .delete, headers: [.authorization: "Bearer \(first)"], body: nil
            ).expectStatus(204)
            try await Self.patch(a, location: location, token: second, bytes: photo[kept...], offset: kept, complete: true, version: 6)
                .expectStatus(201)
        }
    }

    @Test("an abandoned upload expires after RESUMABLE_UPLOAD_TTL_SECONDS and the purge removes it with its bytes")
    func expiry() async throws {
        // 10 s, not 1: under the full suite's load the creating POST itself has taken 2.9 s, so the
        // upload expired before its own bytes were stored and the POST answered 404.
        try await Self.withTwoInstances(configure: {
            $0.resumableUploadInterimResponses = false; $0.resumableUploadTTL = .seconds(10)
        }) {
            a, _, db in
            let (_, token) = try await signedInCustomer(db)
            let item = try await CheckoutHTTPTests.item(db, stock: 1)
            let review = try await ReviewHTTPTests.postReview(a.client, item: item, token: token)
            let created = try await a.client.execute(
                uri: "/v1/reviews/\(review)/photos", method: .post,
                headers: [.authorization: "Bearer \(token)", .uploadVersion: "6", .uploadComplete: "?0"],
                body: ByteBuffer(bytes: Self.photo(1000)))
            let location = try #require(created.headers[.location])
            #expect(try await db.pool.query("SELECT count(*)::int AS n FROM resumable_upload_chunks").rows[0].decode("n") as Int == 1)
            try await Task.sleep(for: .milliseconds(10_500))
            try await a.client.execute(uri: location, method: .head, headers: [.authorization: "Bearer \(token)"], body: nil).expectStatus(
                404)
            var config = AppConfig(databaseURL: db.url, adminToken: adminToken)
            config.resumableUploadTTL = .seconds(1)
            let resources = AppResources(config: config, pool: db.pool, logger: Logger(label: "test"))
            let purged = try await UploadContainer.live(resources).useCase.purgeExpired()
            #expect(purged == 1)
            #expect(try await db.pool.query("SELECT count(*)::int AS n FROM resumable_upload_chunks").rows[0].decode("n") as Int == 0)
        }
    }
}

extension TestResponse {
    @discardableResult
    func expectStatus(_ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        #expect(Int(self.status.code) == status, "body: \(String(buffer: body))", sourceLocation: sourceLocation)
        return self
    }
}

extension HTTPField.Name {
    static let uploadVersion = Self("Upload-Draft-Interop-Version")!
    static let uploadOffset = Self("Upload-Offset")!
    static let uploadComplete = Self("Upload-Complete")!
    static let uploadLength = Self("Upload-Length")!
}
