import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing

/// A generated delete of a row another table still refers to (a note under an unowned record,
/// whose foreign key has no ON DELETE) answers 409 `in-use` and deletes nothing, never a 500.
@Suite("Matrix: deleting a row still referred to")
struct MatrixReferencedDeleteTests {
    @Test func aReferencedRowAnswers409AndStays() async throws {
        try await withApp { client, db in
            let (customerID, _) = try await signedInCustomer(db)
            let noteID = try await MatrixNestedGeneratedHTTPTests.insertNestedNote(db, customerID: customerID)
            let parentID = try await MatrixNestedGeneratedHTTPTests.parentOf(db, noteID)
            let refused = try await client.send(.delete, "/v1/matrix/unowned/\(parentID)", token: adminToken)
            let problem = try refused.expectProblem(409)
            #expect(problem["type"] as? String == "/problems/in-use")
            #expect(try await client.send(.get, "/v1/matrix/unowned/\(parentID)").status == .ok)
            try await db.pool.query("DELETE FROM matrix_nested_notes WHERE id = $1", noteID)
            #expect(try await client.send(.delete, "/v1/matrix/unowned/\(parentID)", token: adminToken).status == .noContent)
        }
    }
}
