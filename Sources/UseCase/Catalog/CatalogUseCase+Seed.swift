import Domain

extension CatalogUseCase {
    /// Loads the demo catalog (`storefront seed`), priced in the shop's currency, but only into
    /// an empty catalog.
    /// - Returns: how many items were added (0 when the catalog already had items).
    /// - Throws: `StoreUnavailable`.
    public func seedDemoCatalog(count: Int = 1200) async throws -> Int {
        let items = DemoCatalog.items(count: count, currency: currency)
        return try await store.insertIfEmpty(items) ? items.count : 0
    }
}
