import Domain
import Foundation

extension CartUseCase {
    /// What putting a quantity of one variant in the cart came to, whichever route named it.
    enum Placement {
        case placed(CartView)
        case short(available: Int)
        case currencyMismatch(item: Currency)
        case full
        /// The variant was removed, or its item archived, after the catalog was read.
        case offSale
    }

    /// Sets the cart's quantity of `variant` (of `item`): only what is in stock now and priced
    /// in the shop's currency is added (checkout reserves; this only tells the customer early),
    /// and a new line only while the cart holds fewer than `Cart.maxLines` and the variant and its
    /// item are on sale when the line is written.
    func place(_ quantity: Int, of variant: Variant, customerID: UUID) async throws -> Placement {
        guard quantity <= variant.stock else { return .short(available: variant.stock) }
        guard variant.price.currency == currency else { return .currencyMismatch(item: variant.price.currency) }
        do {
            try await store.setQuantity(customerID: customerID, variantID: variant.id, quantity: quantity)
        } catch is CartFull {
            return .full
        } catch is VariantOffSale {
            return .offSale
        }
        return .placed(try await view(of: customerID))
    }
}
