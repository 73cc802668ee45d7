import Postgres

/// Runs `insert` again, up to `attempts` times, while it breaks a uniqueness (SQLSTATE 23505):
/// what generated tests wrap a row's insert in when a unique group of its table holds an enum or
/// a bool, whose few values they pick at random each time (two rows of a parent, one per
/// weekday, took the same sample and collided).
public func retryingUniqueViolations(attempts: Int = 50, _ insert: () async throws -> Void) async throws {
    for attempt in 1... {
        do {
            return try await insert()
        } catch PostgresError.uniqueViolation where attempt < attempts {
            continue
        }
    }
}
