import AsyncHTTPClient
import Domain
import Foundation
import NIOCore
import NIOHTTP1

/// The transport of generated http gateways: one JSON call to `baseURL` + path within a deadline,
/// and the decoding of its answer. Any failure to get or read an answer (no base URL configured,
/// connection refused, deadline passed, a body that is not the documented JSON) is an
/// `ExternalServiceError`; the generated gateway judges the status.
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

    /// Sends a call without a body.
    /// - Throws: `ExternalServiceError` when no answer arrives within the deadline.
    public func send(_ method: String, _ path: String) async throws -> ExternalAnswer {
        try await send(method, path, body: nil)
    }

    /// Sends `body` as JSON (its keys as its `CodingKeys` say, timestamps RFC 3339).
    /// - Throws: `ExternalServiceError` when no answer arrives within the deadline.
    public func send(_ method: String, _ path: String, json body: some Encodable) async throws -> ExternalAnswer {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let bytes: Data
        do {
            bytes = try encoder.encode(body)
        } catch {
            throw ExternalServiceError(service: service, reason: "the request could not be encoded: \(error)")
        }
        return try await send(method, path, body: bytes)
    }

    private func send(_ method: String, _ path: String, body: Data?) async throws -> ExternalAnswer {
        guard let baseURL else { throw ExternalServiceError(service: service, reason: "its base URL is not configured") }
        var outgoing = HTTPClientRequest(url: baseURL + path)
        outgoing.method = HTTPMethod(rawValue: method)
        outgoing.headers.add(name: "Accept", value: "application/json")
        if let body {
            outgoing.headers.add(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            return ExternalAnswer(status: Int(response.status.code), body: Array(buffer: body))
        } catch {
            throw ExternalServiceError(service: service, reason: "\(method) \(path): \(error)")
        }
    }

    /// The answer's JSON body as `type` (timestamps RFC 3339, with or without fractions).
    /// - Throws: `ExternalServiceError` naming what could not be read.
    public func decode<T: Decodable>(_ type: T.Type, from answer: ExternalAnswer) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            guard let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 timestamp"))
            }
            return date
        }
        do {
            return try decoder.decode(T.self, from: Data(answer.body))
        } catch {
            throw ExternalServiceError(service: service, reason: "the answer (\(answer.status)) could not be read: \(error)")
        }
    }

    /// `value`, or an `ExternalServiceError` naming `field` when the answer held nothing the
    /// domain can use.
    /// - Throws: `ExternalServiceError`.
    public func read<T>(_ value: T?, _ field: String) throws -> T {
        guard let value else { throw ExternalServiceError(service: service, reason: "the answer's \(field) has an unknown value") }
        return value
    }

    /// The error for a status the spec does not name.
    public func unexpected(_ answer: ExternalAnswer) -> ExternalServiceError {
        ExternalServiceError(service: service, reason: "it answered \(answer.status)")
    }

    /// `value` as one path segment: percent-encoded, `/` included.
    public static func segment(_ value: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// What an API answered: its status and body.
public struct ExternalAnswer: Hashable, Sendable {
    public let status: Int
    public let body: [UInt8]
}

/// `{"amount": 1200, "currency": "JPY"}` in a call to or from an outside API.
public struct ExternalMoney: Codable, Hashable, Sendable {
    let amount: Int64
    let currency: String

    public init(_ money: Money) {
        amount = money.amount
        currency = money.currency.code
    }

    /// - Throws: `ExternalServiceError` for a currency that is not an ISO 4217 code.
    public func money(_ api: ExternalHTTPAPI, _ field: String) throws -> Money {
        Money(amount: amount, currency: try api.read(Currency(currency), field))
    }
}
