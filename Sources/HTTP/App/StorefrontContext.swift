import Hummingbird

/// The request context of every route.
public struct StorefrontContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
