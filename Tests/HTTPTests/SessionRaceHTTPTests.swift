import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Testing

/// A sign-in racing a password change, on the real app, hasher and PostgreSQL.
@Suite("Sign-in racing a password change")
struct SessionRaceHTTPTests {
    @Test func noSessionFromTheOldPasswordSurvivesTheChange() async throws {
        try await withApp(configure: {
            PasswordHashingHTTPTests.unlimited(&$0); $0.passwordHashConcurrency = 4
        }) { client, _ in
            let passwords = ["correct horse 1", "battery staple 2"]
            let phone = try await CustomerSettingHTTPTests.signUp(client, email: "race@example.com", password: passwords[0])
            var survivors: [Int] = []
            var raced = 0
            for round in 0..<16 {
                let (old, new) = (passwords[round % 2], passwords[(round + 1) % 2])
                // The sign-in starts at a different moment of the change each round (which takes two
                // hashes), so that some read the old hash just before the change commits and open
                // their session just after.
                let delay = Duration.milliseconds(10 * round)
                async let change = client.send(
                    .put, "/v1/me/password", json: #"{"current_password":"\#(old)","new_password":"\#(new)"}"#, token: phone)
                async let signIn: (Int, String?) = {
                    try await Task.sleep(for: delay)
                    let answer = try await client.send(.post, "/v1/sessions", json: #"{"email":"race@example.com","password":"\#(old)"}"#)
                    return (Int(answer.status.code), try? answer.json["token"] as? String)
                }()
                let changed = try await change
                #expect(changed.status == .noContent, "\(String(buffer: changed.body))")
                let (status, token) = try await signIn
                #expect(status == 201 || status == 401)
                guard let token else { continue }
                raced += 1
                if try await client.send(.get, "/v1/me", token: token).status != .unauthorized { survivors.append(round) }
            }
            #expect(survivors.isEmpty, "sessions opened with the old password still work after the change (rounds \(survivors))")
            #expect(raced > 0, "no sign-in with the old password succeeded: the race was never run")
            #expect(try await client.send(.get, "/v1/me", token: phone).status == .ok, "the changing session stays")
        }
    }
}
