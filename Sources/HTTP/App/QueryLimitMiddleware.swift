import Hummingbird
import Presenter

/// Refuses a query of more than `maximum` parameters with 400 before any route reads it. Each
/// read of a parameter parses the whole query again (Hummingbird's `queryParameters`), and a
/// catalog page reads some ten: a 70 KB query of 9,000 parameters cost a quarter of a second of
/// CPU a request, and eight clients sending them slowed every other request down. No route
/// takes more than a few dozen.
struct QueryLimitMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    static let maximum = 100

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let query = request.uri.query, query.utf8.lazy.filter({ $0 == UInt8(ascii: "&") }).count >= Self.maximum {
            throw ProblemError(Problem.badRequest("The query has more than \(Self.maximum) parameters."))
        }
        return try await next(request, context)
    }
}
