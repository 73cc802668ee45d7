// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `DELETE /v1/cart/items/{item_id}` (auth: customer): removes the lines of every variant of
    /// the item; nothing happens when there is none.
    /// - Throws: `StoreUnavailable`.
    public func remove(_ input: CartRemoveInput) async throws -> CartRemoveOutcome {
        try await store.remove(customerID: input.customerID, itemID: input.itemID)
        return .cart(try await view(of: input.customerID))
    }
}
