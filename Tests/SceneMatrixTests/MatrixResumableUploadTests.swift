import Foundation
import HTTPTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Postgres
import Testing

/// What the generated code of a resumable upload (`attach_to_slot` in `MatrixBoard.yml`, an
/// integer path parameter with bounds, no precheck) does with the real upload store.
@Suite("MatrixBoard's resumable upload (hand-written checks of generated code)")
struct MatrixResumableUploadTests {
    static func start(_ client: any TestClientProtocol, slot: String, token: String, body: [UInt8]) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/matrix/board/slots/\(slot)/files", method: .post,
            headers: [
                .authorization: "Bearer \(token)", HTTPField.Name("Upload-Draft-Interop-Version")!: "6",
                HTTPField.Name("Upload-Complete")!: "?0",
            ],
            body: ByteBuffer(bytes: body))
    }

    @Test func thePathIsCheckedBeforeAnUploadStartsAndKeptForTheRequestThatFinishesIt() async throws {
        try await withApp { client, db in
            let (_, token) = try await signedInCustomer(db)
            // Out of bounds: refused by the input's checks, nothing stored.
            let refused = try await Self.start(client, slot: "0", token: token, body: [1, 2])
            try refused.expectProblem(422)
            #expect(refused.fieldNames == ["slot"])
            #expect(try await db.pool.query("SELECT count(*)::int AS n FROM resumable_uploads").rows[0].decode("n") as Int == 0)

            let started = try await Self.start(client, slot: "3", token: token, body: [1, 2])
            #expect(started.status == .created)
            let location = try #require(started.headers[.location])
            let kept: String = try await db.pool.query("SELECT parameters::text AS p FROM resumable_uploads").rows[0].decode("p")
            #expect(kept == #"{"slot": "3"}"#)
            // The logic is not written in the matrix: 501, and the upload stays complete, to be finished again.
            let finished = try await client.execute(
                uri: location, method: .patch,
                headers: [
                    .authorization: "Bearer \(token)", HTTPField.Name("Upload-Draft-Interop-Version")!: "6",
                    HTTPField.Name("Upload-Offset")!: "2", HTTPField.Name("Upload-Complete")!: "?1",
                    .contentType: "application/partial-upload",
                ],
                body: ByteBuffer(bytes: [3]))
            try finished.expectProblem(501)
            let state: String = try await db.pool.query("SELECT state FROM resumable_uploads").rows[0].decode("state")
            #expect(state == "open")
            // Past the spec's 4096 bytes.
            let large = try await Self.start(client, slot: "4", token: token, body: Array(repeating: 7, count: 4097))
            try large.expectProblem(413)
        }
    }
}
