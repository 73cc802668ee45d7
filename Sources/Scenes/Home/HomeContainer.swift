import Domain
import UseCase

/// The Home scene's dependencies. Tests fill `init` with mocks; `live` wires PostgreSQL.
public struct HomeContainer: Sendable {
    public let store: any HomeStore

    public init(store: any HomeStore) {
        self.store = store
    }

    public var useCase: HomeUseCase { HomeUseCase(store: store) }
}
