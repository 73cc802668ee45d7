import Domain
import Foundation
import Gateway
import Postgres
import Synchronization
import TestSupport
import Testing

@Suite("Account gateways on real PostgreSQL")
struct AccountGatewayTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    func customer(_ email: String) -> Customer {
        Customer(id: UUID(), email: email, name: "N", createdAt: Self.now)
    }

    @Test func emailsAreUniqueIgnoringCase() async throws {
        try await TestDatabase.with { db in
            let store = PostgresCustomerStore(database: db.pool)
            try await store.create(customer("Ann@Example.com"), passwordHash: "h")
            await #expect(throws: AccountError.emailTaken) { try await store.create(customer("ann@example.COM"), passwordHash: "h") }
            let found = try #require(try await store.credentials(email: "ANN@example.com"))
            #expect(found.customer.email == "Ann@Example.com" && found.passwordHash == "h")
            #expect(try await store.credentials(email: "nobody@example.com") == nil)
        }
    }

    @Test func sessionsExpireAndEnd() async throws {
        try await TestDatabase.with { db in
            let owner = customer("s@example.com")
            try await PostgresCustomerStore(database: db.pool).create(owner, passwordHash: "h")
            let sessions = PostgresSessionStore(database: db.pool)
            let tokens = RandomSessionTokens()
            let token = tokens.newToken()
            #expect(
                try await sessions.create(
                    tokenHash: tokens.hash(token), customerID: owner.id, credentialsVersion: 1, expiresAt: Self.now.addingTimeInterval(60)))
            #expect(try await sessions.session(tokenHash: tokens.hash(token), now: Self.now)?.customerID == owner.id)
            #expect(try await sessions.session(tokenHash: tokens.hash(token), now: Self.now.addingTimeInterval(61)) == nil)
            // Renewed to a later end only, never shortened.
            try await sessions.renew(tokenHash: tokens.hash(token), until: Self.now.addingTimeInterval(30))
            #expect(try await sessions.session(tokenHash: tokens.hash(token), now: Self.now)?.expiresAt == Self.now.addingTimeInterval(60))
            #expect(try await sessions.deleteExpired(now: Self.now.addingTimeInterval(59)) == 0)
            #expect(try await sessions.deleteExpired(now: Self.now.addingTimeInterval(60)) == 1)
            _ = try await sessions.create(
                tokenHash: tokens.hash(token), customerID: owner.id, credentialsVersion: 1, expiresAt: Self.now.addingTimeInterval(60))
            try await sessions.delete(tokenHash: tokens.hash(token))
            #expect(try await sessions.session(tokenHash: tokens.hash(token), now: Self.now) == nil)
            // Only the hash is stored.
            let stored: [UInt8] = try await db.pool.query("SELECT token_hash FROM sessions").rows.first?.decode("token_hash") ?? []
            #expect(stored.isEmpty)
        }
    }

    @Test func tokensAre256RandomBits() {
        let tokens = RandomSessionTokens()
        let a = tokens.newToken()
        #expect(a.count == 43 && a != tokens.newToken())
        #expect(tokens.hash(a).count == 32)
    }

    @Test func passwordHashesAreSaltedSlowAndVerifiable() async throws {
        let hasher = PBKDF2PasswordHasher()
        let first = try await hasher.hash("correct horse")
        let second = try await hasher.hash("correct horse")
        #expect(first != second, "no salt")
        #expect(first.hasPrefix("pbkdf2-sha256$210000$"))
        #expect(try await hasher.verify("correct horse", against: first))
        #expect(try await !hasher.verify("correct horsE", against: first))
        #expect(try await !hasher.verify("correct horse", against: "garbage"))
    }

    @Test func hashesBeyondTheBoundAreRefusedAtOnceNotQueued() async throws {
        let hasher = PBKDF2PasswordHasher(maxConcurrent: 2)
        // What each of eight concurrent hashes ended with: a hash, or the error's type.
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do { return try await hasher.hash("correct horse") } catch { return "\(type(of: error))" }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let refused = outcomes.filter { $0 == "TooManyRequests" }.count
        let hashed = outcomes.filter { $0.hasPrefix("pbkdf2-sha256$") }.count
        #expect(refused >= 1 && hashed >= 2 && refused + hashed == 8, "\(outcomes)")
        // Once they are done, the slots are free again.
        #expect(try await hasher.verify("correct horse", against: try await hasher.hash("correct horse")))
    }

    @Test func aSessionCountsOnlyUnderTheCredentialsItWasOpenedWith() async throws {
        try await TestDatabase.with { db in
            let owner = customer("v@example.com")
            try await PostgresCustomerStore(database: db.pool).create(owner, passwordHash: "h")
            let version = try #require(try await PostgresCustomerStore(database: db.pool).credentials(email: "v@example.com")).version
            let sessions = PostgresSessionStore(database: db.pool)
            let expires = Date().addingTimeInterval(60)
            #expect(
                try await sessions.create(
                    tokenHash: Array(repeating: 1, count: 32), customerID: owner.id, credentialsVersion: version, expiresAt: expires))
            try await PostgresCustomerSettingStore(database: db.pool).changePassword(
                customerID: owner.id, newHash: "h2", keptSession: Array(repeating: 9, count: 32))
            // Opened under the old version after the change: refused; opened before it: ended.
            #expect(
                try await !sessions.create(
                    tokenHash: Array(repeating: 2, count: 32), customerID: owner.id, credentialsVersion: version, expiresAt: expires))
            #expect(try await sessions.session(tokenHash: Array(repeating: 1, count: 32), now: Date()) == nil)
            let current = try #require(try await PostgresCustomerStore(database: db.pool).credentials(email: "v@example.com"))
            #expect(current.version == version + 1 && current.passwordHash == "h2")
        }
    }
}

/// A hasher that counts its hashes and fails the first `failing` of them.
private final class CountingHasher: PasswordHasher, Sendable {
    private let state: Mutex<(hashes: Int, failing: Int)>
    var hashes: Int { state.withLock { $0.hashes } }

    init(failing: Int) { state = Mutex((0, failing)) }

    func hash(_ password: String) async throws -> String {
        let failed = state.withLock { state in
            state.hashes += 1
            guard state.failing > 0 else { return false }
            state.failing -= 1
            return true
        }
        if failed { throw CancellationError() }
        return "hash of \(password)"
    }

    func verify(_ password: String, against hash: String) async throws -> Bool { hash == "hash of \(password)" }
}

@Suite("The decoy hash of sign-ins with an unknown email")
struct DecoyHashTests {
    @Test func isMadeOnceByTheHasherForConcurrentSignIns() async throws {
        let decoy = DecoyHash()
        let hasher = CountingHasher(failing: 0)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { try await decoy.value(from: hasher) } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values.count == 1 && values.first?.hasPrefix("hash of ") == true)
        #expect(hasher.hashes == 1)
    }

    @Test func isMadeAgainAfterTheHasherFailed() async throws {
        let decoy = DecoyHash()
        let hasher = CountingHasher(failing: 1)
        await #expect(throws: CancellationError.self) { try await decoy.value(from: hasher) }
        let value = try await decoy.value(from: hasher)
        #expect(try await decoy.value(from: hasher) == value)
        #expect(hasher.hashes == 2)
    }
}
