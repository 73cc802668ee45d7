import Domain
import Foundation
import Synchronization

/// The hash a sign-in with an unknown email checks its password against: made by the real hasher
/// from a random secret on first need, so it has the algorithm, cost and lengths of a real one and
/// checking against it costs what checking a customer's hash costs.
public final class DecoyHash: DecoyPasswordHash {
    private let made = Mutex<Task<String, any Error>?>(nil)

    public init() {}

    /// - Throws: what `hasher.hash` throws (then the next call tries again).
    public func value(from hasher: any PasswordHasher) async throws -> String {
        let task = made.withLock { made in
            if let made { return made }
            let task = Task { try await hasher.hash("\(UUID.random())\(UUID.random())") }
            made = task
            return task
        }
        do {
            return try await task.value
        } catch {
            made.withLock { if $0 == task { $0 = nil } }
            throw error
        }
    }
}
