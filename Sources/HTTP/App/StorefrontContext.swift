import Foundation
import Hummingbird
import NIOCore

/// The request context of every route.
public struct StorefrontContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in customer, set by `CustomerAuthMiddleware` on customer routes.
    public var customerID: UUID?
    /// The address of the connection's peer (`nil` in router tests, which have no socket).
    public let peerAddress: String?
    /// The client's address that rate limits count by, set by `ClientAddressMiddleware`.
    public var clientAddress = "unknown"

    public init(source: Source) {
        self.coreContext = .init(source: source)
        let peer = source.channel.remoteAddress
        self.peerAddress = peer?.ipAddress ?? peer?.pathname
    }
}
