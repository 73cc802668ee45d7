import Foundation
import Gateway
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// A customer with a live session, made directly in the database (sign-up's slow password
/// hash is tested elsewhere and would only slow the concurrency tests down).
public func signedInCustomer(_ db: TestDatabase) async throws -> (id: UUID, token: String) {
    let id = UUID()
    let tokens = RandomSessionTokens()
    let token = tokens.newToken()
    try await db.pool.query(
        "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, $2, 'N', 'x')", id, "\(id)@example.com")
    try await db.pool.query(
        "INSERT INTO sessions (token_hash, customer_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')", tokens.hash(token), id)
    return (id, token)
}

extension TestClientProtocol {
    @discardableResult
    public func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String? = nil,
        contentType: String = "application/json", headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if json != nil { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    public var json: [String: Any] {
        get throws {
            let data = Data(buffer: body)
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any], "body: \(String(buffer: body))")
        }
    }

    /// The body decoded as `type`, the model the service wrote it from.
    public func decode<T: Decodable>(_ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(buffer: body))
        } catch {
            Issue.record("not a \(type): \(error); body: \(String(buffer: body))", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Checks the answer is a problem document with this status; returns it.
    @discardableResult
    public func expectProblem(_ status: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(Int(self.status.code) == status, "body: \(String(buffer: body))", sourceLocation: sourceLocation)
        #expect(headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        let problem = try json
        #expect(problem["status"] as? Int == status, sourceLocation: sourceLocation)
        #expect(problem["type"] is String && problem["title"] is String && problem["detail"] is String, sourceLocation: sourceLocation)
        return problem
    }

    public var fieldNames: [String] {
        ((try? json)?["errors"] as? [[String: String]] ?? []).compactMap { $0["field"] }
    }
}

/// Whether two values decoded by `JSONSerialization` are the same JSON: compared as their
/// serializations with sorted keys, since the order of an object's members is not part of it.
public func sameJSON(_ left: Any?, _ right: Any?) -> Bool {
    func canonical(_ value: Any?) -> Data? {
        try? JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: [.sortedKeys, .fragmentsAllowed])
    }
    return canonical(left) != nil && canonical(left) == canonical(right)
}

extension HTTPFields {
    /// Header fields by their names, for generated tests (which import no HTTPTypes).
    public static func named(_ fields: [String: String]) -> HTTPFields {
        var headers = HTTPFields()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return headers
    }
}
