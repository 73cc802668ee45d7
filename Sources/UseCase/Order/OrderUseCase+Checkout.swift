// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// Decline codes that say the card is suspected of fraud, lost or stolen. Stripe advises
    /// answering them as `generic_decline`: telling a card thief why only helps the thief.
    static let withheldDeclineCodes: Set<String> = ["fraudulent", "lost_card", "stolen_card", "pickup_card", "merchant_blacklist"]

    /// `POST /v1/orders` (auth: customer): places an order from the cart and pays for it
    /// (`OrderCheckout`: stock reserved first, the provider called outside any transaction, the
    /// answer given within `checkout_deadline` while the payment goes on). A repeated
    /// Idempotency-Key with the same body answers with the first order as it stands now.
    /// A customer with `awaiting_payment_limit` orders waiting for payment is refused before
    /// anything is reserved, and so is an order below the least the provider charges or one
    /// whose total is not the `expected_total` the app showed.
    /// - Throws: `ValidationError` for a key or payment method of the wrong shape, or an
    ///   `expected_total` in another currency than the shop's;
    ///   `StoreUnavailable`.
    public func checkout(_ input: OrderCheckoutInput, background: any BackgroundWork) async throws -> OrderCheckoutOutcome {
        guard let payments else { return .paymentsNotConfigured }
        if let expected = input.expectedTotal, expected.currency != currency {
            throw ValidationError([FieldError("expected_total.currency", "must be the shop's currency, \(currency.code)")])
        }
        let checkout = OrderCheckout(
            store: store, payments: payments, system: system, deadline: checkoutDeadline, actionTimeout: actionTimeout)
        let request = CheckoutRequest(
            customerID: input.customerID, paymentMethod: input.paymentMethod, idempotencyKey: input.idempotencyKey,
            addressID: input.addressID, shippingMethodID: input.shippingMethodID, awaitingPaymentLimit: awaitingPaymentLimit,
            minimumCharge: Money(amount: payments.minimumCharge(in: currency), currency: currency),
            maximumCharge: Money(amount: payments.maximumCharge(in: currency), currency: currency),
            paymentUnderWay: ReconcileUseCase.minimumAge(for: payments), expectedTotal: input.expectedTotal)
        do {
            switch try await checkout.checkout(request) {
            case .paid(let order): return .paid(order)
            case .pending(let order): return .pending(order)
            case .cancelled(let order): return .orderCancelled(orderID: order.id)
            case .declined(let order, let code):
                guard Self.withheldDeclineCodes.contains(code) else { return .paymentDeclined(declineCode: code, orderID: order.id) }
                background.warn("order \(order.id.lowercasedText) declined with decline_code \(code), answered as generic_decline")
                return .paymentDeclined(declineCode: "generic_decline", orderID: order.id)
            }
        } catch let error as OrderError {
            switch error {
            case .emptyCart: return .emptyCart
            case .insufficientStock(let lines):
                return .insufficientStock(
                    count: lines.count, itemIDs: lines.map(\.line.itemID), variantIDs: lines.map(\.line.variantID),
                    errors: lines.map {
                        FieldError("lines[\($0.line.variantID.lowercasedText)].quantity", "only \($0.available) available")
                    })
            case .unavailableItems(let lines):
                return .itemsUnavailable(
                    count: lines.count, itemIDs: lines.map(\.itemID), variantIDs: lines.map(\.variantID),
                    errors: lines.map {
                        FieldError("lines[\($0.variantID.lowercasedText)]", "is no longer for sale in the shop's currency")
                    })
            case .idempotencyKeyReused: return .idempotencyKeyReused
            case .belowMinimumCharge(let total, let minimum):
                return .amountBelowMinimum(total: total, minimum: minimum)
            case .aboveMaximumCharge(let total, let maximum):
                return .amountAboveMaximum(total: total, maximum: maximum)
            case .awaitingPayment(let orderIDs): return .ordersAwaitingPayment(count: orderIDs.count, orderIDs: orderIDs)
            case .checkoutInProgress(let orderID): return .checkoutInProgress(orderID: orderID)
            case .totalChanged(let total, let expected):
                return .totalChanged(total: total, expected: expected)
            case .shippingRequired:
                throw ValidationError([
                    FieldError("address_id", "is required: the shop ships orders"),
                    FieldError("shipping_method_id", "is required: the shop ships orders"),
                ])
            case .addressNotFound: throw ValidationError([FieldError("address_id", "is no address of yours")])
            case .shippingNotOffered: throw ValidationError([FieldError("shipping_method_id", "does not ship to this address")])
            default: throw error
            }
        }
    }
}
