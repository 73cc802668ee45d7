// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Gateway
import Scenes

/// The production implementations of the Cart scene's hand-written ports.
extension CartContainer {
    /// The `store` port: `cart_lines` on PostgreSQL, joined with the items' current prices.
    static func liveStore(_ resources: AppResources) -> any CartStore {
        PostgresCartStore(database: resources.pool)
    }

    /// The `catalog` port: the items on PostgreSQL.
    static func liveCatalog(_ resources: AppResources) -> any ItemStore {
        PostgresItemStore(database: resources.pool, mediaURL: resources.config.mediaFilesURL)
    }

    /// The `currency` port: the shop's currency (`SHOP_CURRENCY`).
    static func liveCurrency(_ resources: AppResources) -> Currency {
        resources.config.currency
    }

    /// The `addresses` port: the customers' address books on PostgreSQL (the Address scene's store).
    static func liveAddresses(_ resources: AppResources) -> any AddressStore {
        PostgresAddressStore(database: resources.pool)
    }

    /// The `shipping` port: the active shipping methods and their rates on PostgreSQL.
    static func liveShipping(_ resources: AppResources) -> any ShippingOffers {
        PostgresShippingOffers(database: resources.pool)
    }

    /// The `tax_policy` port: the shop's tax settings (`PRICES_INCLUDE_TAX`, `TAX_ROUNDING`), by
    /// which the cart is taxed as its checkout would be.
    static func liveTaxPolicy(_ resources: AppResources) -> TaxPolicy {
        resources.config.taxPolicy
    }
}
