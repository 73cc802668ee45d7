import Domain
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

    public var useCase: CartUseCase { CartUseCase(store: store, catalog: catalog, currency: currency) }
}
