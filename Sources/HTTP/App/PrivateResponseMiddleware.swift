import HTTPTypes
import Hummingbird

/// Marks answers that are the asker's own `Cache-Control: no-store`, unless the route set its
/// own policy: every answer to a request with credentials (`Authorization`), and every answer to
/// a POST, a session's token among them (RFC 6749 5.1 asks token answers not to be stored). A
/// shared cache or the app's URL cache keeps none of them; public reads (the catalog, the link
/// pages) stay cacheable.
struct PrivateResponseMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil, request.headers[.authorization] != nil || request.method == .post {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
