import Domain
import Foundation

/// Asks the provider for an order's refund and records its outcome as the provider states it.
/// Shared by cancellation, which claims `paid -> refund_pending` first, and the reconciler,
/// which settles what is left `refund_pending`. Every change is conditional on the order still
/// being `refund_pending`, so both may run at once on any instance.
struct OrderRefunds: Sendable {
    let store: any OrderStore
    let payments: any PaymentGateway
    let system: SystemContext
    /// Who settles the refund: the customer cancelling, or the system reconciling.
    let actor: EventActor

    /// Reused by every attempt at one cancel's refund, so the provider makes it at most once. A
    /// cancel made again after its refund failed (the order paid again) is a refund of its own,
    /// keyed by how many times the order was claimed for one: a provider answers a key it holds
    /// with its first answer, the failure, for a day.
    static func key(_ order: Order) -> String {
        let claims = order.events.filter { $0.type == "status_changed" && $0.data["to"] == OrderStatus.refundPending.rawValue }.count
        return "order-\(order.id.lowercasedText)-refund" + (claims > 1 ? "-\(claims)" : "")
    }

    /// What a full refund of the order gives back: the total less what staff refunds gave back.
    static func remaining(_ order: Order) -> Money {
        let refunded = order.refunds.filter { $0.status == .succeeded }.reduce(Int64(0)) { $0 + $1.amount.amount }
        return Money(amount: order.total.amount - refunded, currency: order.total.currency)
    }

    /// Refunds what remains of a `refund_pending` order and records the answer (see `record`). No answer
    /// leaves it `refund_pending` for the reconciler; a definite refusal makes it `paid` again.
    /// - Returns: the order's status afterwards.
    /// - Throws: the refusing `PaymentError` (the order is `paid` again), `StoreUnavailable`.
    func issue(_ order: Order, paymentID: String) async throws -> OrderStatus {
        let refund: PaymentRefund
        do {
            refund = try await payments.refund(paymentID: paymentID, amount: Self.remaining(order), idempotencyKey: Self.key(order))
        } catch let error as PaymentError where error.outcomeUnknown {
            return .refundPending
        } catch let error as PaymentError {
            _ = try await store.transition(orderID: order.id, from: .refundPending, to: .paid, restock: false, by: actor, at: system.now())
            throw error
        }
        return try await record(order, refund)
    }

    /// Applies the provider's refund to a `refund_pending` order: `succeeded` refunds and
    /// restocks it; `failed` and `canceled` make it `paid` again; `pending` and
    /// `requires_action` leave it `refund_pending`. The refund's id and status are recorded.
    /// - Returns: the order's status afterwards (another settlement may have come first).
    /// - Throws: `StoreUnavailable`.
    func record(_ order: Order, _ refund: PaymentRefund) async throws -> OrderStatus {
        let next: OrderStatus
        switch refund.status {
        case .succeeded: next = .refunded
        case .failed, .canceled: next = .paid
        case .pending, .requiresAction: next = .refundPending
        }
        let recorded = RefundRecord(id: refund.id, status: refund.status)
        if try await store.transition(
            orderID: order.id, from: .refundPending, to: next, restock: next == .refunded, refund: recorded, by: actor,
            at: system.now())
        {
            return next
        }
        return try await store.order(id: order.id, customerID: order.customerID)?.status ?? next
    }
}
