import Foundation
import HTTPTypes
import Hummingbird

/// Decides which address a request's rate limits count by. With no trusted proxy (`hops` 0) it is
/// the connection's peer and `X-Forwarded-For` is ignored, so a client cannot pick its own bucket.
/// Behind `hops` proxies that each append the address they received from to
/// `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`), it is the `hops`-th entry from the
/// right: the one the outermost trusted proxy wrote. Entries left of it are the client's own claims.
/// An IPv6 address counts as its /64 (`bucket(of:)`).
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
        guard hops > 0, entries.count >= hops, !entries[entries.count - hops].isEmpty else { return bucket(of: peer ?? "unknown") }
        return bucket(of: entries[entries.count - hops])
    }

    /// What one client's limits count under: an IPv4 address itself (an IPv4-mapped IPv6 one
    /// too), an IPv6 address's /64. A line or a host is given a whole /64 (RFC 6177), so one
    /// client could otherwise count as 2^64 clients, each with a fresh allowance. A port, the
    /// brackets around an IPv6 address and its zone, which some proxies write, are no part of
    /// the client (each port was a fresh allowance); anything else is kept as it is.
    static func bucket(of written: String) -> String {
        var address = Substring(written)
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            address = address[address.index(after: address.startIndex)..<close]
        } else if address.filter({ $0 == ":" }).count == 1, let colon = address.firstIndex(of: ":") {
            address = address[..<colon]  // an IPv4 address and its port
        }
        if let zone = address.firstIndex(of: "%") { address = address[..<zone] }
        let text = String(address)
        var bytes = [UInt8](repeating: 0, count: 16)
        guard text.contains(":"), inet_pton(AF_INET6, text, &bytes) == 1 else { return text }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
