// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `GET /v1/cart` (auth: customer).
    /// - Throws: `StoreUnavailable`.
    public func show(_ input: CartShowInput) async throws -> CartShowOutcome {
        .cart(try await view(of: input.customerID))
    }

    /// The customer's cart as its answer shows it, at current prices.
    /// - Throws: `StoreUnavailable`.
    func view(of customerID: UUID) async throws -> CartView {
        try CartView(Cart(lines: try await store.lines(customerID: customerID), currency: currency))
    }
}
