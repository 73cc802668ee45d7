import Hummingbird
import Presenter

/// Refuses, with 400 before any route reads it, a query of more than `maximum` parameters, or
/// one whose percent-encoded bytes are not UTF-8.
/// - Each read of a parameter parses the whole query again (Hummingbird's `queryParameters`),
///   and a catalog page reads some ten: a 70 KB query of 9,000 parameters cost a quarter of a
///   second of CPU a request, and eight clients sending them slowed every other request down.
///   No route takes more than a few dozen.
/// - `q=%FF` was read as some other text and searched for (200, nothing found), where the
///   client sent no text at all.
struct QueryCheckMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    static let maximum = 100

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let query = request.uri.query {
            if query.utf8.lazy.filter({ $0 == UInt8(ascii: "&") }).count >= Self.maximum {
                throw ProblemError(Problem.badRequest("The query has more than \(Self.maximum) parameters."))
            }
            guard Self.decodesToUTF8(query) else {
                throw ProblemError(Problem.badRequest("The query's percent-encoded bytes are not UTF-8."))
            }
        }
        return try await next(request, context)
    }

    /// Whether `query`, its `%XX` escapes decoded (anything else kept as it is), is UTF-8.
    static func decodesToUTF8(_ query: some StringProtocol) -> Bool {
        let raw = Array(query.utf8)
        guard raw.contains(UInt8(ascii: "%")) else { return true }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "%"), index + 2 < raw.count, let high = hex(raw[index + 1]), let low = hex(raw[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
