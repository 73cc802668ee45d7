// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `DELETE /v1/cart/variants/{variant_id}` (auth: customer): nothing happens when there is
    /// no line.
    /// - Throws: `StoreUnavailable`.
    public func removeVariant(_ input: CartRemoveVariantInput) async throws -> CartRemoveVariantOutcome {
        try await store.remove(customerID: input.customerID, variantID: input.variantID)
        return .cart(try await view(of: input.customerID))
    }
}
