import Domain
import UseCase

/// The rate limits' dependencies. Tests fill `init`; `live` keeps the counts in PostgreSQL, so
/// every instance of the service counts against the same limits.
public struct ThrottleContainer: Sendable {
    public let limiter: any RateLimiter
    public let limits: RateLimits
    public let system: SystemContext

    public init(limiter: any RateLimiter, limits: RateLimits, system: SystemContext) {
        self.limiter = limiter
        self.limits = limits
        self.system = system
    }

    public var throttle: RequestThrottle { RequestThrottle(limiter: limiter, limits: limits, system: system) }
}
