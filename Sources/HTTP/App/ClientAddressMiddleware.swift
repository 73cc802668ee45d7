import Foundation
import HTTPTypes
import Hummingbird

/// Decides which address a request's rate limits count by. With no trusted proxy (`hops` 0) it is
/// the connection's peer and `X-Forwarded-For` is ignored, so a client cannot pick its own bucket.
/// Behind `hops` proxies that each append the address they received from to
/// `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`), it is the `hops`-th entry from the
/// right: the one the outermost trusted proxy wrote. Entries left of it are the client's own claims.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = StorefrontContext
    let hops: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.clientAddress = Self.address(forwardedFor: request.headers[values: .xForwardedFor], peer: context.peerAddress, hops: hops)
        return try await next(request, context)
    }

    /// The client's address from the `X-Forwarded-For` field lines and the peer's address.
    static func address(forwardedFor lines: [String], peer: String?, hops: Int) -> String {
        let entries = lines.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard hops > 0, entries.count >= hops, !entries[entries.count - hops].isEmpty else { return peer ?? "unknown" }
        return entries[entries.count - hops]
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
