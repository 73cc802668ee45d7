import Domain
import Gateway
import Scenes
import UseCase

/// The production graph of `ThrottleContainer`.
extension ThrottleContainer {
    public static func live(_ resources: AppResources) -> ThrottleContainer {
        ThrottleContainer(
            limiter: PostgresRateLimiter(database: resources.pool), limits: resources.config.rateLimits, system: resources.system)
    }
}
