import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOHTTP1

/// The transport of generated http gateways: sends an `ExternalRequest` to `baseURL` + path with a
/// deadline and answers status and body. Any failure to get an answer (no base URL configured,
/// connection refused, deadline passed) is an `ExternalServiceError`; an answer of any status is
/// returned for the caller to judge.
public struct ExternalHTTPAPI: Sendable {
    let service: String
    let baseURL: String?
    let client: HTTPClient
    let timeout: Duration
    static let maxResponseBytes = 1 << 20

    /// - Parameters:
    ///   - service: the gateway's name, for errors and logs.
    ///   - baseURL: from the environment variable the spec names; `nil` when it is unset.
    public init(service: String, baseURL: String?, client: HTTPClient = SharedHTTPClient.client, timeout: Duration = .seconds(10)) {
        self.service = service
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.client = client
        self.timeout = timeout
    }

    public func send(_ request: ExternalRequest) async throws -> ExternalResponse {
        guard let baseURL else { throw ExternalServiceError(service: service, reason: "its base URL is not configured") }
        var outgoing = HTTPClientRequest(url: baseURL + request.path)
        outgoing.method = HTTPMethod(rawValue: request.method)
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            return ExternalResponse(status: Int(response.status.code), body: Array(buffer: body))
        } catch {
            throw ExternalServiceError(service: service, reason: "\(error)")
        }
    }
}
