import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// `ExternalHTTPAPI`, the transport of generated http gateways, against a real HTTP server (the
/// media server `./Tools/test` starts on loopback, which answers unknown paths 404 with JSON).
@Suite("ExternalHTTPAPI against a real server")
struct ExternalHTTPAPITests {
    struct Missing: Decodable { let error: String }
    struct Other: Decodable { let url: String }

    func api() throws -> ExternalHTTPAPI {
        guard let url = ProcessInfo.processInfo.environment["STOREFRONT_TEST_MEDIA_URL"] else {
            throw TestSetupError("STOREFRONT_TEST_MEDIA_URL is not set: run the media tests through ./Tools/test")
        }
        return ExternalHTTPAPI(service: "Media", baseURL: url + "/")
    }

    @Test func anAnswerOfAnyStatusIsReturnedWithItsJSON() async throws {
        let api = try api()
        let answer = try await api.send("POST", "/links/\(ExternalHTTPAPI.segment("a/b"))", json: ["target_id": "x"])
        #expect(answer.status == 404)
        #expect(try api.decode(Missing.self, from: answer).error.isEmpty == false)
        #expect(api.unexpected(answer) == ExternalServiceError(service: "Media", reason: "it answered 404"))
    }

    @Test func anAnswerThatIsNotTheDocumentedJSONIsAnExternalServiceError() async throws {
        let api = try api()
        let answer = try await api.send("GET", "/links")
        #expect(throws: ExternalServiceError.self) { try api.decode(Other.self, from: answer) }
        #expect(throws: ExternalServiceError.self) { try api.read(Int?.none, "count") }
    }

    @Test func noBaseURLOrNoServerIsAnExternalServiceError() async throws {
        await #expect(throws: ExternalServiceError(service: "Links", reason: "its base URL is not configured")) {
            try await ExternalHTTPAPI(service: "Links", baseURL: nil).send("GET", "/links")
        }
        let unreachable = ExternalHTTPAPI(service: "Links", baseURL: "http://127.0.0.1:\(freePort())", timeout: .seconds(2))
        await #expect(throws: ExternalServiceError.self) { try await unreachable.send("POST", "/links", json: ["a": 1]) }
    }

    @Test func aPathSegmentIsPercentEncoded() {
        #expect(ExternalHTTPAPI.segment("a/b c?d#e;f") == "a%2Fb%20c%3Fd%23e%3Bf")
        #expect(ExternalHTTPAPI.segment("3f0e-ab_c.~") == "3f0e-ab_c.~")
    }
}
