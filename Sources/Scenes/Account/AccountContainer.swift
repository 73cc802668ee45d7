import Domain
import UseCase

/// The Account scene's dependencies. Tests fill `init` with mocks; `live` wires PostgreSQL and
/// the real password hash and token source.
public struct AccountContainer: Sendable {
    public let customers: any CustomerStore
    public let sessions: any SessionStore
    public let hasher: any PasswordHasher
    public let tokens: any SessionTokens
    public let system: SystemContext

    public init(
        customers: any CustomerStore, sessions: any SessionStore, hasher: any PasswordHasher, tokens: any SessionTokens,
        system: SystemContext
    ) {
        self.customers = customers
        self.sessions = sessions
        self.hasher = hasher
        self.tokens = tokens
        self.system = system
    }

    public var useCase: AccountUseCase {
        AccountUseCase(customers: customers, sessions: sessions, hasher: hasher, tokens: tokens, system: system)
    }
}
