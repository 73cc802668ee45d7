import Foundation
import Hummingbird
import Presenter

/// Lets a request through only with `Authorization: Bearer <ADMIN_TOKEN>`. Without a configured
/// token the admin API is closed.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else {
            return Problem.unauthorized("The admin API is disabled: ADMIN_TOKEN is not set.").response(from: request, context: context)
        }
        guard let presented = BearerToken.from(request), constantTimeEquals(presented, token) else {
            return Problem.unauthorized("Send Authorization: Bearer <admin token>.").response(from: request, context: context)
        }
        return try await next(request, context)
    }
}

/// The token of an `Authorization: Bearer ...` header.
enum BearerToken {
    static func from(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// Compares without returning early, so response time says nothing about how much matched.
func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8)
    let b = Array(rhs.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
        difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
}
