// once: created by scenegen from Specs/Account.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Account scene's hand-written ports.
extension AccountContainer {
    /// The `customers` port: the customers table on PostgreSQL.
    static func liveCustomers(_ resources: AppResources) -> any CustomerStore {
        PostgresCustomerStore(database: resources.pool)
    }

    /// The `sessions` port: the sessions table on PostgreSQL.
    static func liveSessions(_ resources: AppResources) -> any SessionStore {
        PostgresSessionStore(database: resources.pool)
    }

    /// The `hasher` port: the instance's password hasher, bounded to its cores.
    static func liveHasher(_ resources: AppResources) -> any PasswordHasher {
        resources.passwordHasher
    }

    /// The `tokens` port: random session tokens, kept as SHA-256 hashes.
    static func liveTokens(_ resources: AppResources) -> any SessionTokens {
        RandomSessionTokens()
    }

    /// The `decoy` port: made by the hasher on the first sign-in with an unknown email.
    static func liveDecoy(_ resources: AppResources) -> any DecoyPasswordHash {
        DecoyHash()
    }
}
