import Domain
import UseCase

/// The Catalog scene's dependencies. Tests fill `init` with mocks; `live` wires PostgreSQL.
public struct CatalogContainer: Sendable {
    public let store: any ItemStore
    public let system: SystemContext

    public init(store: any ItemStore, system: SystemContext) {
        self.store = store
        self.system = system
    }

    public var useCase: CatalogUseCase { CatalogUseCase(store: store, system: system) }
}
