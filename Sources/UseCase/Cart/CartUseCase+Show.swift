// once: created by scenegen from Specs/Cart.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CartUseCase {
    /// `GET /v1/cart` (auth: customer): the cart taxed as its checkout would be; with
    /// `address_id`, the shipping methods that ship there (active, with a rate for the address,
    /// in the cart's currency), each with its fee for this cart's subtotal and the total the
    /// checkout would charge with it, cheapest first (none while nothing in it can be bought).
    /// An `address_id` that is no address of the customer's is a 422 naming it, as at checkout.
    /// - Throws: `StoreUnavailable`.
    public func show(_ input: CartShowInput) async throws -> CartShowOutcome {
        let cart = try await cart(of: input.customerID)
        let view = try CartView(cart, taxPolicy: taxPolicy)
        guard let addressID = input.addressID else { return .cart(view) }
        guard let address = try await addresses.find(customerID: input.customerID, id: addressID) else {
            return .unknownAddress
        }
        // No option for a cart with nothing to buy: its checkout is refused.
        guard cart.lines.count > cart.unavailableLines.count else { return .cart(view) }
        let quotes = try await shipping.offers(shippingTo: address.country)
            .compactMap { $0.quote(for: address, subtotal: view.subtotal) }
            .sorted { ($0.fee.amount, $0.name) < ($1.fee.amount, $1.name) }
        let options = try quotes.map { ShippingOption($0, total: try cart.totals(shippingFee: $0.fee, policy: taxPolicy).total) }
        return .cart(view.offering(options))
    }

    /// The customer's cart as its answer shows it, at current prices.
    /// - Throws: `StoreUnavailable`.
    func view(of customerID: UUID) async throws -> CartView {
        try CartView(try await cart(of: customerID), taxPolicy: taxPolicy)
    }

    /// The customer's cart at current prices.
    /// - Throws: `StoreUnavailable`.
    private func cart(of customerID: UUID) async throws -> Cart {
        Cart(lines: try await store.lines(customerID: customerID), currency: currency)
    }
}
