import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing
import Translator

/// `/v1/me` end to end on real PostgreSQL, with real sign-ups (the real password hash).
@Suite("Customer settings over HTTP")
struct CustomerSettingHTTPTests {
    static func signUp(_ client: any TestClientProtocol, email: String, password: String = "correct horse 1") async throws -> String {
        let created = try await client.send(.post, "/v1/customers", json: #"{"email":"\#(email)","password":"\#(password)","name":"Ann"}"#)
        #expect(created.status == .created)
        return try await signIn(client, email: email, password: password)
    }

    static func signIn(_ client: any TestClientProtocol, email: String, password: String) async throws -> String {
        let session = try await client.send(.post, "/v1/sessions", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
        return try session.decode(SessionModel.self).token
    }

    @Test func readAndChangeSettings() async throws {
        try await withApp { client, _ in
            let token = try await Self.signUp(client, email: "ann@example.com")
            let response = try await client.send(.get, "/v1/me", token: token)
            #expect(Set(try response.json.keys) == ["id", "email", "name", "locale", "marketing_opt_in", "created_at"])
            let me = try response.decode(CustomerSettingsModel.self)
            #expect(me.locale == "en" && me.marketingOptIn == false)

            let changed = try await client.send(
                .patch, "/v1/me", json: #"{"name":"Ann B","locale":"ja-JP","marketing_opt_in":true}"#, token: token)
            #expect(changed.status == .ok)
            let body = try changed.decode(CustomerSettingsModel.self)
            #expect(body.name == "Ann B" && body.locale == "ja-JP" && body.marketingOptIn == true)
            #expect(body.email == "ann@example.com")

            let bad = try await client.send(.patch, "/v1/me", json: #"{"locale":"Japanese!","email":"x"}"#, token: token)
            try bad.expectProblem(422)
            #expect(Set(bad.fieldNames) == ["locale", "email", "current_password"])
            try await client.send(.patch, "/v1/me", json: "{}", token: token).expectProblem(422)
            try await client.send(.get, "/v1/me").expectProblem(401)

            _ = try await Self.signUp(client, email: "bob@example.com")
            let taken = try await client.send(
                .patch, "/v1/me", json: #"{"email":"BOB@example.com","current_password":"correct horse 1"}"#, token: token)
            try taken.expectProblem(409)
            #expect(taken.fieldNames == ["email"])
            let moved = try await client.send(
                .patch, "/v1/me", json: #"{"email":"ann.b@example.com","current_password":"correct horse 1"}"#, token: token)
            #expect(try moved.decode(CustomerSettingsModel.self).email == "ann.b@example.com")
        }
    }

    @Test func changingTheEmailNeedsTheCurrentPassword() async throws {
        try await withApp { client, _ in
            let token = try await Self.signUp(client, email: "dee@example.com")
            let missing = try await client.send(.patch, "/v1/me", json: #"{"email":"thief@example.com"}"#, token: token)
            try missing.expectProblem(422)
            #expect(missing.fieldNames == ["current_password"])
            let wrong = try await client.send(
                .patch, "/v1/me", json: #"{"email":"thief@example.com","current_password":"not it at all"}"#, token: token)
            try wrong.expectProblem(403)
            #expect(try await client.send(.get, "/v1/me", token: token).decode(CustomerSettingsModel.self).email == "dee@example.com")
            let moved = try await client.send(
                .patch, "/v1/me", json: #"{"email":"dee.b@example.com","current_password":"correct horse 1"}"#, token: token)
            #expect(try moved.decode(CustomerSettingsModel.self).email == "dee.b@example.com")
            #expect(
                try await client.send(.patch, "/v1/me", json: #"{"name":"Dee"}"#, token: token).status == .ok, "other settings need none")
        }
    }

    @Test func changingThePasswordEndsEveryOtherSession() async throws {
        try await withApp { client, _ in
            let phone = try await Self.signUp(client, email: "cy@example.com")
            let laptop = try await Self.signIn(client, email: "cy@example.com", password: "correct horse 1")

            let wrong = try await client.send(
                .put, "/v1/me/password", json: #"{"current_password":"not it at all","new_password":"battery staple 2"}"#, token: phone)
            try wrong.expectProblem(403)
            try await client.send(
                .put, "/v1/me/password", json: #"{"current_password":"correct horse 1","new_password":"short"}"#, token: phone
            )
            .expectProblem(422)
            #expect(try await client.send(.get, "/v1/me", token: laptop).status == .ok, "failed attempts end nothing")

            let changed = try await client.send(
                .put, "/v1/me/password", json: #"{"current_password":"correct horse 1","new_password":"battery staple 2"}"#, token: phone)
            #expect(changed.status == .noContent, "\(String(buffer: changed.body))")
            #expect(try await client.send(.get, "/v1/me", token: phone).status == .ok, "the changing session stays")
            try await client.send(.get, "/v1/me", token: laptop).expectProblem(401)
            try await client.send(.post, "/v1/sessions", json: #"{"email":"cy@example.com","password":"correct horse 1"}"#).expectProblem(
                401)
            _ = try await Self.signIn(client, email: "cy@example.com", password: "battery staple 2")
        }
    }
}
