import Domain
import Translator

/// Checkout and order outcomes to HTTP answers.
public enum OrderPresenter {
    /// 201 paid, 202 pending (reconciled later), 402 declined with the decline code (see `declined`).
    public static func checkout(_ outcome: Result<CheckoutOutcome, any Error>) -> Presentation {
        outcome.flatMap { result in
            Result {
                switch result {
                case .paid(let order):
                    return .json(201, try OrderTranslator.model(order), headers: [("Location", location(order))])
                case .pending(let order):
                    return .json(202, try OrderTranslator.model(order), headers: [("Location", location(order))])
                case .declined(let order, let code):
                    return declined(order, code: code)
                }
            }
        }.recover(problem)
    }

    /// Decline codes that say the card is suspected of fraud, lost or stolen. Stripe advises
    /// answering them as `generic_decline`: telling a card thief why only helps the thief.
    static let withheldDeclineCodes: Set<String> = ["fraudulent", "lost_card", "stolen_card", "pickup_card", "merchant_blacklist"]

    /// 402 naming the decline code, or `generic_decline` for a withheld one, whose real code goes to
    /// the log (the presentation's diagnostic).
    static func declined(_ order: Order, code: String) -> Presentation {
        let withheld = withheldDeclineCodes.contains(code)
        let shown = withheld ? "generic_decline" : code
        var presentation = Problem.make(
            402, "payment-declined", "Payment declined", detail: "The payment was declined (\(shown)); nothing was charged.",
            extensions: ["decline_code": .string(shown), "order_id": .string(order.id.uuidString.lowercased())])
        if withheld {
            presentation.diagnostic =
                "order \(order.id.uuidString.lowercased()) declined with decline_code \(code), answered as generic_decline"
        }
        return presentation
    }

    /// 200 cancelled or refunded; 202 when the refund is not settled yet (`refund_pending`).
    public static func cancellation(_ outcome: Result<Order, any Error>) -> Presentation {
        outcome.flatMap { order in Result { .json(order.status == .refundPending ? 202 : 200, try OrderTranslator.model(order)) } }
            .recover(problem)
    }

    public static func order(_ outcome: Result<Order, any Error>) -> Presentation {
        outcome.flatMap { order in Result { .json(200, try OrderTranslator.model(order)) } }.recover(problem)
    }

    public static func page(_ outcome: Result<Page<Order>, any Error>) -> Presentation {
        outcome.flatMap { page in Result { .json(200, try OrderTranslator.model(page)) } }.recover(problem)
    }

    static func location(_ order: Order) -> String { "/v1/orders/\(order.id.uuidString.lowercased())" }

    public static func problem(_ error: any Error) -> Presentation {
        switch error {
        case OrderError.emptyCart:
            return Problem.make(422, "empty-cart", "Empty cart", detail: "The cart is empty: add items before checking out.")
        case OrderError.insufficientStock(let lines):
            return Problem.make(
                409, "insufficient-stock", "Insufficient stock",
                detail: "\(lines.count) line\(lines.count == 1 ? "" : "s") of the cart cannot be filled; nothing was reserved.",
                errors: lines.map { FieldError("lines[\($0.itemID.uuidString.lowercased())].quantity", "only \($0.available) available") },
                extensions: ["item_ids": .strings(lines.map { $0.itemID.uuidString.lowercased() })])
        case OrderError.unavailableItems(let ids):
            let names = ids.map { $0.uuidString.lowercased() }
            return Problem.make(
                409, "items-unavailable", "Items unavailable",
                detail: "\(ids.count) item\(ids.count == 1 ? " is" : "s are") no longer priced in the shop's currency; "
                    + "remove \(ids.count == 1 ? "it" : "them") from the cart. Nothing was reserved.",
                errors: names.map { FieldError("lines[\($0)]", "is no longer for sale in the shop's currency") },
                extensions: ["item_ids": .strings(names)])
        case OrderError.idempotencyKeyReused:
            return Problem.make(
                422, "idempotency-key-reused", "Idempotency-Key reused",
                detail: "This Idempotency-Key was used with a different request body.")
        case OrderError.notCancellable(let status):
            return Problem.make(
                409, "order-not-cancellable", "Order cannot be cancelled",
                detail: "An order that is \(status.rawValue) cannot be cancelled; only pending and paid orders can.",
                extensions: ["order_status": .string(status.rawValue)])
        case OrderError.refundUnsettled:
            return Problem.make(
                409, "refund-unsettled", "Refund in progress",
                detail: "A refund of this order is not settled yet; cancel it once the refund is.",
                extensions: ["order_status": .string(OrderStatus.paid.rawValue)])
        case OrderError.refundFailed(let status):
            return Problem.make(
                502, "refund-failed", "Refund failed",
                detail: "The payment provider answered the refund \(status.rawValue); nothing was refunded and the order stays paid.",
                extensions: ["refund_status": .string(status.rawValue)])
        case let error as PaymentError:
            return Problem.make(
                502, "payment-provider-error", "Payment provider error",
                detail:
                    "The payment provider could not settle this now (\(error.outcomeUnknown ? "no answer" : "refused")); try again shortly."
            )
        case OrderError.orderNotFound(let id):
            return Problem.notFound("No order of yours has id \(id.uuidString.lowercased()).")
        default:
            return Problem.from(error)
        }
    }
}
