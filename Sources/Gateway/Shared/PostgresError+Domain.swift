import Domain
import Postgres

/// Runs a gateway operation, turning "the database cannot be reached" into the domain's
/// `StoreUnavailable`; other errors pass through for the caller to map or report.
/// - Throws: `StoreUnavailable`, or what `body` throws.
@discardableResult
func translatingUnavailable<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PostgresError where error.isUnavailable {
        throw StoreUnavailable(error.description)
    }
}
