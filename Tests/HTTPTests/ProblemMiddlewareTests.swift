import Domain
import Foundation
import HTTPTestSupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import HTTP

/// What `ProblemMiddleware` makes of errors a route throws, on a router of its own.
@Suite("Problem middleware")
struct ProblemMiddlewareTests {
    /// A client whose connection reset or closed before its request ended is no failure of ours:
    /// a 400, not a 500 that any anonymous client could run up (and alerts on 5xx with it); an
    /// error nobody expected stays a 500, and a store unavailable is a 503 wherever it is thrown.
    @Test func aClientGoneMidRequestIsA400AndAnythingUnexpectedA500() async throws {
        let router = Router(context: StorefrontContext.self)
        router.add(middleware: ProblemMiddleware(allowedMethods: AllowedMethods(paths: [:])))
        let gone: [(String, any Error)] = [
            ("reset", IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)")),
            ("pipe", IOError(errnoCode: EPIPE, reason: "write")), ("eof", ChannelError.eof),
            ("closed", ChannelError.ioOnClosedChannel),
        ]
        for (path, error) in gone { router.post("/\(path)") { _, _ -> Response in throw error } }
        router.post("/unexpected") { _, _ -> Response in throw IOError(errnoCode: EMFILE, reason: "accept") }
        // Routes that call a store directly (the resumable uploads') answer as every route does.
        router.post("/store") { _, _ -> Response in throw StoreUnavailable("down") }
        try await Application(router: router).test(.router) { client in
            for (path, _) in gone {
                let answer = try await client.execute(uri: "/\(path)", method: .post)
                #expect(answer.status == .badRequest, "\(path)")
                #expect(answer.headers[.contentType] == "application/problem+json", "\(path)")
            }
            #expect(try await client.execute(uri: "/unexpected", method: .post).status == .internalServerError)
            let unavailable = try await client.execute(uri: "/store", method: .post)
            #expect(unavailable.status == .serviceUnavailable && unavailable.headers[.retryAfter] != nil)
        }
    }
}
