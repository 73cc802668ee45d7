import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing

/// `DELETE /v1/me` on the real app and PostgreSQL: personal data goes, orders stay anonymized,
/// and the email is free to sign up again as a new customer; an order on its way keeps the
/// account until it is delivered.
@Suite("Account deletion over HTTP")
struct AccountDeletionHTTPTests {
    @Test func deletingAnAccountErasesItAndKeepsItsOrders() async throws {
        try await withApp(configure: { PasswordHashingHTTPTests.unlimited(&$0) }) { client, db in
            let email = "leaving@example.com"
            let token = try await CustomerSettingHTTPTests.signUp(client, email: email)
            let me = try await client.send(.get, "/v1/me", token: token).json
            let customer = try #require((me["id"] as? String).flatMap(UUID.init(uuidString:)))
            let address =
                #"{"recipient":"山田 太郎","phone":"03-1234-5678","postal_code":"1000001","country":"JP","region":"JP-13","city":"千代田区","line1":"千代田1-1"}"#
            #expect(try await client.send(.post, "/v1/addresses", json: address, token: token).status == .created)
            #expect(try await PushHTTPTests.register(client, PushHTTPTests.token(0x77), token).status == .created)
            let mug = try await TestRows.insertItem(db, name: "Mug", price: 1200, stock: 5)
            _ = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
            let paid = try await client.send(
                .post, "/v1/orders", json: #"{"payment_method":"pm_card_visa"}"#, token: token, headers: [.init("Idempotency-Key")!: "k"])
            #expect(paid.status == .created, "\(String(buffer: paid.body))")
            let order = try #require(try paid.json["id"] as? String)
            _ = try await client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)

            // The password is asked for; a wrong one deletes nothing.
            let wrong = try await client.send(.delete, "/v1/me", json: #"{"current_password":"wrong horse 9"}"#, token: token)
            _ = try wrong.expectProblem(403)
            #expect(wrong.fieldNames == ["current_password"])
            try await client.send(.delete, "/v1/me", json: "{}", token: token).expectProblem(422)
            try await client.send(.delete, "/v1/me", json: #"{"current_password":"correct horse 1"}"#).expectProblem(401)

            // Not while the order is on its way: the shop still needs where it goes.
            let deleteMe = { try await client.send(.delete, "/v1/me", json: #"{"current_password":"correct horse 1"}"#, token: token) }
            #expect(try await deleteMe().expectProblem(409)["order_ids"] as? [String] == [order])
            let shipment = try #require(try await FulfilmentHTTPTests.ship(client, order).json["id"] as? String)
            #expect(try await deleteMe().expectProblem(409)["order_ids"] as? [String] == [order], "shipped, not delivered")
            #expect(try await client.send(.post, "/v1/admin/shipments/\(shipment)/delivered", token: adminToken).status == .ok)
            // A refund under way may fail and leave the order paid: it keeps the account too.
            _ = try await db.pool.query("UPDATE orders SET status = 'refund_pending' WHERE id = $1::uuid", order)
            #expect(try await deleteMe().expectProblem(409)["order_ids"] as? [String] == [order], "refund pending")
            _ = try await db.pool.query("UPDATE orders SET status = 'paid' WHERE id = $1::uuid", order)
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok, "nothing was deleted")

            let deleted = try await client.send(.delete, "/v1/me", json: #"{"current_password":"correct horse 1"}"#, token: token)
            #expect(deleted.status == .noContent, "\(String(buffer: deleted.body))")
            // Signed out everywhere, and nothing signs in as it again.
            try await client.send(.get, "/v1/me", token: token).expectProblem(401)
            let signIn = try await client.send(.post, "/v1/sessions", json: #"{"email":"\#(email)","password":"correct horse 1"}"#)
            _ = try signIn.expectProblem(401)
            // Personal data is gone; the order stays, anonymized.
            let row = try await db.pool.query(
                "SELECT email, name, password_hash, deleted_at IS NOT NULL AS deleted FROM customers WHERE id = $1", customer
            ).rows[0]
            #expect(
                try row.decode("email") as String != email && row.decode("name") as String == "deleted" && row.decode("deleted") as Bool)
            // No one may take the erased address (a live account holding it made a deletion fail).
            let erased: String = try row.decode("email")
            let taken = try await client.send(
                .post, "/v1/customers", json: #"{"email":"\#(erased)","password":"correct horse 1","name":"X"}"#)
            try taken.expectProblem(422)
            for table in ["sessions", "addresses", "cart_lines", "devices"] {
                let left = try await db.pool.query("SELECT count(*)::int AS n FROM \(table) WHERE customer_id = $1", customer).rows[0]
                #expect(try left.decode("n") as Int == 0, "\(table)")
            }
            let staff = try await client.send(.get, "/v1/admin/orders/\(order)", token: adminToken).json
            #expect(staff["customer_email"] is NSNull)
            #expect((staff["order"] as? [String: Any])?["total"] != nil)
            // Deleting again is the same 401 as any ended session; the email signs up anew.
            let again = try await CustomerSettingHTTPTests.signUp(client, email: email)
            let fresh = try await client.send(.get, "/v1/me", token: again).json
            #expect(fresh["id"] as? String != customer.uuidString.lowercased() && fresh["email"] as? String == email)
            #expect((try await client.send(.get, "/v1/orders", token: again).json["data"] as? [Any])?.isEmpty == true)
        }
    }

    /// A request whose session was valid when it began writes nothing personal once the account
    /// is deleted, neither a row of its own nor a change of the account's: its insert waits for the deletion (the triggers of Migrations/0035 and 0038 take the
    /// customer's key share, the deletion holds the row FOR UPDATE) and is then refused with 401.
    /// The deletion's first statements are played here in a transaction held open meanwhile.
    @Test func aWriteRacingTheDeletionLeavesNothingBehind() async throws {
        try await withApp(configure: { PasswordHashingHTTPTests.unlimited(&$0) }) { client, db in
            let token = try await CustomerSettingHTTPTests.signUp(client, email: "racing@example.com")
            let me = try await client.send(.get, "/v1/me", token: token).json
            let customer = try #require((me["id"] as? String).flatMap(UUID.init(uuidString:)))
            let mug = try await TestRows.insertItem(db, name: "Mug", price: 1200, stock: 5)
            let address =
                #"{"recipient":"山田 太郎","phone":"03-1234-5678","postal_code":"1000001","country":"JP","region":"JP-13","city":"千代田区","line1":"千代田1-1"}"#
            let writes = try await db.pool.withTransaction { connection in
                try await connection.query("SELECT 1 FROM customers WHERE id = $1 FOR UPDATE", customer)
                try await connection.query("UPDATE customers SET deleted_at = now() WHERE id = $1", customer)
                let writes = Task {
                    async let added = client.send(.post, "/v1/addresses", json: address, token: token)
                    async let carted = client.send(.put, "/v1/cart/items/\(mug)", json: #"{"quantity": 1}"#, token: token)
                    async let device = PushHTTPTests.register(client, PushHTTPTests.token(0x78), token)
                    async let renamed = client.send(.patch, "/v1/me", json: #"{"name":"Still Here"}"#, token: token)
                    return try await [added, carted, device, renamed]
                }
                try await db.waitForLockWaiters(4)
                return writes
            }
            for answer in try await writes.value { _ = try answer.expectProblem(401) }
            for table in ["addresses", "cart_lines", "devices"] {
                let left = try await db.pool.query("SELECT count(*)::int AS n FROM \(table) WHERE customer_id = $1", customer).rows[0]
                #expect(try left.decode("n") as Int == 0, "\(table)")
            }
            let name: String = try await db.pool.query("SELECT name FROM customers WHERE id = $1", customer).rows[0].decode("name")
            #expect(name != "Still Here", "the deleted row is not written back")
        }
    }
}
