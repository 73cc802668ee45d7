import Domain
import Foundation

/// Checkout and the customer's orders. Stock is reserved in the database before the provider is
/// called, the provider is called outside any transaction, and an unanswered payment leaves the
/// order pending for the reconciler instead of guessing.
public struct OrderUseCase: Sendable {
    let store: any OrderStore
    let payments: any PaymentGateway
    let system: SystemContext

    public init(store: any OrderStore, payments: any PaymentGateway, system: SystemContext) {
        self.store = store
        self.payments = payments
        self.system = system
    }

    /// Places an order from the cart and pays for it. A repeated Idempotency-Key with the same
    /// body answers with the first order as it stands now; nothing is charged again.
    /// - Throws: `ValidationError`, `OrderError.emptyCart`, `.insufficientStock`,
    ///   `.idempotencyKeyReused`, `StoreUnavailable`.
    public func checkout(_ request: CheckoutRequest) async throws -> CheckoutOutcome {
        try request.validate()
        let (order, created) = try await store.placeOrder(id: system.newID(), request: request, at: system.now())
        guard created else { return Self.replay(order) }
        return try await pay(order, paymentMethod: request.paymentMethod)
    }

    private func pay(_ order: Order, paymentMethod: String) async throws -> CheckoutOutcome {
        let key = "order-\(order.id.uuidString.lowercased())"
        do {
            let intent = try await payments.createPayment(
                amount: order.total, paymentMethod: paymentMethod, orderID: order.id, idempotencyKey: key + "-create")
            guard try await store.attachPayment(orderID: order.id, paymentIntentID: intent.id) else {
                // Cancelled while the payment was being created: never confirm it.
                _ = try? await payments.cancelPayment(id: intent.id, idempotencyKey: key + "-cancel")
                return Self.replay(try await store.order(id: order.id, customerID: order.customerID) ?? order)
            }
            let confirmed = try await payments.confirmPayment(id: intent.id, idempotencyKey: key + "-confirm")
            switch confirmed.status {
            case .succeeded, .requiresCapture:
                return .paid(try await store.markPaid(orderID: order.id, at: system.now()))
            case .processing:
                return .pending(order)
            case .requiresAction, .requiresPaymentMethod, .requiresConfirmation, .canceled:
                // 3-D Secure and similar flows need the client; this API does not offer them.
                _ = try? await payments.cancelPayment(id: intent.id, idempotencyKey: key + "-cancel")
                return try await declined(order, code: "authentication_required")
            }
        } catch let error as PaymentError {
            switch error {
            case .cardDeclined(let code, let declineCode, _):
                return try await declined(order, code: declineCode ?? code)
            case .invalidRequest:
                return try await declined(order, code: "invalid_payment_method")
            case .rateLimited, .providerFailure, .unreachable:
                return .pending(order)
            }
        }
    }

    private func declined(_ order: Order, code: String) async throws -> CheckoutOutcome {
        .declined(try await store.markPaymentFailed(orderID: order.id, declineCode: code, at: system.now()), code: code)
    }

    static func replay(_ order: Order) -> CheckoutOutcome {
        switch order.status {
        case .pendingPayment: return .pending(order)
        case .paymentFailed: return .declined(order, code: order.declineCode ?? "card_declined")
        case .paid, .cancelled, .refundPending, .refunded: return .paid(order)
        }
    }
}
