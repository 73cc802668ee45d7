import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id: the client's `X-Request-ID` when it is a sensible token, else a new
/// UUID. The id goes back as `X-Request-ID` (on errors too: this middleware is outermost), into
/// every log line of the request, and into one access-log line with status and duration.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    static let header = HTTPField.Name("X-Request-ID")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = request.headers[Self.header].flatMap(Self.acceptable) ?? UUID.random().lowercasedText
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        let started = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[Self.header] = id
        let elapsed = ContinuousClock.now - started
        context.logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
                "ms": .string(
                    String(format: "%.1f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)),
            ])
        return response
    }

    /// A client's id is echoed only if it is short and plain (letters, digits, `-`, `_`, `.`).
    static func acceptable(_ id: String) -> String? {
        guard (1...128).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            return nil
        }
        return id
    }
}
