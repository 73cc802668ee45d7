import Foundation
import Hummingbird

/// The request context of every route.
public struct StorefrontContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in customer, set by `CustomerAuthMiddleware` on customer routes.
    public var customerID: UUID?

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
