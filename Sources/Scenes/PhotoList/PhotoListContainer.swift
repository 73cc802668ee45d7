import Domain
import UseCase

/// The PhotoList scene's dependencies. Tests fill `init` with mocks; `live` wires PostgreSQL.
public struct PhotoListContainer: Sendable {
    public let store: any PhotoListStore

    public init(store: any PhotoListStore) {
        self.store = store
    }

    public var useCase: PhotoListUseCase { PhotoListUseCase(store: store) }
}
