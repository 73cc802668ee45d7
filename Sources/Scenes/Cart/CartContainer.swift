import Domain
import Gateway
import UseCase

/// The Cart scene's dependencies: its own store and the catalog it reads stock and prices from.
public struct CartContainer: Sendable {
    public let store: any CartStore
    public let catalog: any ItemStore
    public let currency: Currency

    public init(store: any CartStore, catalog: any ItemStore, currency: Currency) {
        self.store = store
        self.catalog = catalog
        self.currency = currency
    }

    public static func live(_ resources: AppResources) -> CartContainer {
        CartContainer(
            store: PostgresCartStore(database: resources.pool), catalog: PostgresItemStore(database: resources.pool),
            currency: resources.config.currency)
    }

    public var useCase: CartUseCase { CartUseCase(store: store, catalog: catalog, currency: currency) }
}
