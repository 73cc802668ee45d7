import HTTPTypes
import OpenAPIRuntime

import struct Foundation.URL

/// Signs the client's requests in: adds `Authorization: Bearer <token>` while `token` gives one
/// (the app's session from `POST /v1/sessions`, or the staff's admin token), and sends requests
/// as they are when it gives none.
public struct BearerTokenMiddleware: ClientMiddleware {
    private let token: @Sendable () async -> String?

    public init(token: @escaping @Sendable () async -> String?) {
        self.token = token
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = await token() { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}
