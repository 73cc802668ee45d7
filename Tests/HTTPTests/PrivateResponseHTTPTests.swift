import HTTPTestSupport
import HummingbirdTesting
import TestSupport
import Testing

/// What is the asker's own is never stored by a cache: answers to credentials and to POSTs (a
/// session's token) say `no-store`; public reads say nothing, and a route's own policy stands.
@Suite("Cache-Control of private answers")
struct PrivateResponseHTTPTests {
    @Test func answersToCredentialsAndTokensAreNotStored() async throws {
        try await withApp { client, db in
            let token = try await CustomerSettingHTTPTests.signUp(client, email: "cache@example.com")
            let session = try await client.send(.post, "/v1/sessions", json: #"{"email":"cache@example.com","password":"correct horse 1"}"#)
            #expect(session.status == .created && session.headers[.cacheControl] == "no-store")
            let me = try await client.send(.get, "/v1/me", token: token)
            #expect(me.status == .ok && me.headers[.cacheControl] == "no-store")
            let refused = try await client.send(.get, "/v1/me", token: "not-a-session")
            #expect(refused.status == .unauthorized && refused.headers[.cacheControl] == "no-store")
            let item = try await TestRows.insertItem(db, name: "Mug", price: 1200, stock: 5)
            let shown = try await client.send(.get, "/v1/items/\(item)")
            #expect(shown.status == .ok && shown.headers[.cacheControl] == nil, "a public read stays cacheable")
        }
    }
}
