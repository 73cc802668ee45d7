import Presenter
import UseCase

extension RequestThrottle {
    /// Runs one of the throttle's checks; a refusal or a failure becomes its problem answer (429
    /// with `Retry-After`, 503) before the route does any work.
    /// - Throws: `ProblemError`.
    func enforce(_ check: (RequestThrottle) async throws -> Void) async throws {
        do {
            try await check(self)
        } catch {
            throw ProblemError(Problem.from(error))
        }
    }
}
