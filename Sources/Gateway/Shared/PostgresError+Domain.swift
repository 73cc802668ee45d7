import Domain
import Postgres

/// Runs a gateway operation, turning "the database cannot be reached" into the domain's
/// `StoreUnavailable`, and a row refused for a customer deleted meanwhile (the trigger of
/// Migrations/0035 and 0038) into `CustomerDeleted`; other errors pass through for the caller to map or
/// report.
/// - Throws: `StoreUnavailable`, `CustomerDeleted`, or what `body` throws.
@discardableResult
func translatingUnavailable<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PostgresError where error.isUnavailable {
        throw StoreUnavailable(error.description)
    } catch let error as PostgresError where error.constraint == "customer_deleted" {
        throw CustomerDeleted()
    }
}
