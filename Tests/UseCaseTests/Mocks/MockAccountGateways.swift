import Domain
import Foundation
import Synchronization

/// In-memory stand-ins for the Account scene's ports that record their calls. Unlike a stub they
/// keep state, so sign-up then sign-in can be tested together; a real store is tested in
/// GatewayTests.
final class MockCustomerStore: CustomerStore, Sendable {
    private let state = Mutex<(rows: [(Customer, String)], calls: [String])>(([], []))
    var calls: [String] { state.withLock { $0.calls } }

    func create(_ customer: Customer, passwordHash: String) async throws {
        try state.withLock { state in
            state.calls.append("create \(customer.email)")
            if state.rows.contains(where: { Self.same($0.0.email, customer.email) }) { throw AccountError.emailTaken }
            state.rows.append((customer, passwordHash))
        }
    }

    func credentials(email: String) async throws -> (customer: Customer, passwordHash: String, version: Int)? {
        state.withLock { state in
            state.calls.append("credentials \(email)")
            return state.rows.first { Self.same($0.0.email, email) }.map { ($0.0, $0.1, 1) }
        }
    }

    /// Equal as PostgreSQL's `lower(a) = lower(b)` finds them: code point by code point, case
    /// aside (Swift's == would take two Unicode forms of one text for one).
    static func same(_ a: String, _ b: String) -> Bool { a.lowercased().unicodeScalars.elementsEqual(b.lowercased().unicodeScalars) }
}

final class MockSessionStore: SessionStore, Sendable {
    private let state = Mutex<[(hash: [UInt8], customer: UUID, expires: Date)]>([])
    var count: Int { state.withLock { $0.count } }

    func create(tokenHash: [UInt8], customerID: UUID, credentialsVersion: Int, expiresAt: Date) async throws -> Bool {
        state.withLock { $0.append((tokenHash, customerID, expiresAt)) }
        return true
    }

    func session(tokenHash: [UInt8], now: Date) async throws -> (customerID: UUID, expiresAt: Date)? {
        state.withLock { rows in rows.first { $0.hash == tokenHash && $0.expires > now }.map { ($0.customer, $0.expires) } }
    }

    func renew(tokenHash: [UInt8], until: Date) async throws {
        state.withLock { rows in
            for index in rows.indices where rows[index].hash == tokenHash && rows[index].expires < until { rows[index].expires = until }
        }
    }

    /// When the session of `tokenHash` ends.
    func end(of tokenHash: [UInt8]) -> Date? { state.withLock { rows in rows.first { $0.hash == tokenHash }?.expires } }

    func delete(tokenHash: [UInt8]) async throws {
        state.withLock { rows in rows.removeAll { $0.hash == tokenHash } }
    }

    func deleteExpired(now: Date) async throws -> Int {
        state.withLock { rows in
            let before = rows.count
            rows.removeAll { $0.expires <= now }
            return before - rows.count
        }
    }
}

/// A reversible "hash" that records which passwords were checked: speed for unit tests, and a
/// way to see that an unknown email still costs a verification.
final class MockPasswordHasher: PasswordHasher, Sendable {
    private let verified = Mutex<[String]>([])
    var verifications: [String] { verified.withLock { $0 } }

    func hash(_ password: String) async throws -> String { "mock$" + password }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        verified.withLock { $0.append(hash) }
        return hash == "mock$" + password
    }
}

/// The decoy the hasher makes of a fixed secret, made again on every call.
struct MockDecoyHash: DecoyPasswordHash {
    func value(from hasher: any PasswordHasher) async throws -> String { try await hasher.hash("decoy secret") }
}

final class SequentialTokens: SessionTokens, Sendable {
    let counter = Atomic<Int>(0)
    func newToken() -> String { "token-\(counter.add(1, ordering: .relaxed).newValue)" }
    func hash(_ token: String) -> [UInt8] { Array(token.utf8) }
}
