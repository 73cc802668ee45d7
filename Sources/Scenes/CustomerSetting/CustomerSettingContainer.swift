import Domain
import UseCase

/// The CustomerSetting scene's dependencies. Tests fill `init` with mocks; `live` wires
/// PostgreSQL and the real password hash.
public struct CustomerSettingContainer: Sendable {
    public let store: any CustomerSettingStore
    public let hasher: any PasswordHasher
    public let tokens: any SessionTokens

    public init(store: any CustomerSettingStore, hasher: any PasswordHasher, tokens: any SessionTokens) {
        self.store = store
        self.hasher = hasher
        self.tokens = tokens
    }

    public var useCase: CustomerSettingUseCase { CustomerSettingUseCase(store: store, hasher: hasher, tokens: tokens) }
}
