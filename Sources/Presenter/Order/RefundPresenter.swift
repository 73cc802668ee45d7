import Domain
import Translator

/// Staff refund outcomes to HTTP answers.
public enum RefundPresenter {
    /// 201 succeeded, 202 pending (settled later), 502 failed or canceled by the provider (the
    /// refund is in the problem's `refund`).
    public static func refund(_ outcome: Result<RefundOutcome, any Error>) -> Presentation {
        outcome.map { result in
            switch result {
            case .succeeded(let refund): return .json(201, OrderTranslator.model(refund))
            case .pending(let refund): return .json(202, OrderTranslator.model(refund))
            case .failed(let refund):
                return Problem.make(
                    502, "refund-failed", "Refund failed",
                    detail: "The payment provider answered the refund \(refund.status.rawValue); nothing was refunded.",
                    extensions: [
                        "refund_id": .string(refund.id.uuidString.lowercased()), "refund_status": .string(refund.status.rawValue),
                    ])
            }
        }.recover(problem)
    }

    public static func problem(_ error: any Error) -> Presentation {
        switch error {
        case RefundError.orderNotFound(let id):
            return Problem.notFound("No order has id \(id.uuidString.lowercased()).")
        case RefundError.notRefundable(let status):
            return Problem.make(
                409, "order-not-refundable", "Order cannot be refunded",
                detail: "An order that is \(status.rawValue) cannot be refunded; only paid orders can.",
                extensions: ["order_status": .string(status.rawValue)])
        case RefundError.exceedsCaptured(let remaining):
            return Problem.make(
                409, "refund-exceeds-captured", "Refund exceeds what was captured",
                detail: "Only \(remaining.amount) \(remaining.currency.code) of this order is left to refund.",
                errors: [FieldError("amount", "must be at most \(remaining.amount), what is left to refund")],
                extensions: ["remaining_amount": .int(Int(remaining.amount))])
        case RefundError.invalidLines(let errors):
            return Problem.validation(ValidationError(errors))
        case RefundError.idempotencyKeyReused:
            return Problem.make(
                422, "idempotency-key-reused", "Idempotency-Key reused",
                detail: "This Idempotency-Key was used with a different request body.")
        default:
            return Problem.from(error)
        }
    }
}
