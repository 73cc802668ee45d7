import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Testing
import Translator

@Suite("Accounts over HTTP, whole app on real PostgreSQL")
struct AccountHTTPTests {
    static let signUp = #"{"email":"ann@example.com","password":"correct horse","name":"Ann"}"#

    @Test func signUpSignInSignOut() async throws {
        try await withApp { client, _ in
            let created = try await client.send(.post, "/v1/customers", json: Self.signUp)
            #expect(created.status == .created)
            #expect(created.headers[.location] == "/v1/me", "where the new customer reads themself once signed in")
            #expect(Set(try created.json.keys) == ["id", "email", "name", "created_at"])
            let customer = try created.decode(CustomerModel.self)
            #expect(customer.email == "ann@example.com" && customer.name == "Ann")

            let session = try await client.send(.post, "/v1/sessions", json: #"{"email":"ANN@example.com","password":"correct horse"}"#)
            #expect(session.status == .created)
            let body = try session.decode(SessionModel.self)
            let token = body.token
            #expect(body.customerID == customer.id && body.expiresAt.hasSuffix("Z"))

            #expect(try await client.send(.delete, "/v1/sessions/current", token: token).status == .noContent)
            try await client.send(.delete, "/v1/sessions/current", token: token).expectProblem(401)
        }
    }

    /// An email typed with `é` as one code point or as `e` and a combining accent is one address:
    /// they were two accounts that look alike, each reached only by its own spelling.
    @Test func oneEmailWhateverItsUnicodeForm() async throws {
        try await withApp { client, _ in
            let decomposed = #"{"email":"rene\#u{301}@example.com","password":"correct horse","name":"René"}"#
            let created = try await client.send(.post, "/v1/customers", json: decomposed)
            #expect(created.status == .created)
            // Compared code point by code point: Swift's == takes the two forms for one.
            let stored = try #require(try created.json["email"] as? String)
            #expect(stored.unicodeScalars.elementsEqual("ren\u{E9}@example.com".unicodeScalars))
            let composed = decomposed.replacingOccurrences(of: "e\u{301}", with: "\u{E9}")
            try await client.send(.post, "/v1/customers", json: composed).expectProblem(409)
            for body in [composed, decomposed] {
                let session = try await client.send(.post, "/v1/sessions", json: body)
                #expect(session.status == .created, "\(body)")
            }
        }
    }

    @Test func duplicateWeakAndWrong() async throws {
        try await withApp { client, _ in
            try await client.send(.post, "/v1/customers", json: Self.signUp)
            let again = try await client.send(.post, "/v1/customers", json: Self.signUp.replacingOccurrences(of: "ann@", with: "ANN@"))
            try again.expectProblem(409)
            let weak = try await client.send(.post, "/v1/customers", json: #"{"email":"x","password":"123","name":""}"#)
            try weak.expectProblem(422)
            #expect(weak.fieldNames == ["email", "password", "name"])
            try await client.send(.post, "/v1/customers", json: #"{"email":"a@b.co"}"#).expectProblem(422)

            let wrongPassword = try await client.send(
                .post, "/v1/sessions", json: #"{"email":"ann@example.com","password":"wrong horse!"}"#)
            let unknownEmail = try await client.send(
                .post, "/v1/sessions", json: #"{"email":"zed@example.com","password":"correct horse"}"#)
            try wrongPassword.expectProblem(401)
            try unknownEmail.expectProblem(401)
            #expect(wrongPassword.body == unknownEmail.body, "the answers must not tell which emails exist")
        }
    }

    @Test func customerRoutesNeedALiveSession() async throws {
        try await withApp { client, _ in
            try await client.send(.delete, "/v1/sessions/current").expectProblem(401)
            try await client.send(.delete, "/v1/sessions/current", token: "made-up").expectProblem(401)
        }
    }
}
