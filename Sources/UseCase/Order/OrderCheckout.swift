import Domain
import Foundation
import Synchronization

/// Checkout (the Order scene's `checkout` and `refresh_payment` call it). Stock is reserved in the database before the provider is
/// called, the provider is called outside any transaction, and an unanswered payment leaves the
/// order pending for the reconciler instead of guessing. A payment that needs the customer
/// (3-D Secure) leaves the order `requires_action` for the app to complete.
public struct OrderCheckout: Sendable {
    let store: any OrderStore
    let payments: any PaymentGateway
    let system: SystemContext
    /// The most a checkout answer waits for the provider (`CHECKOUT_DEADLINE_SECONDS`); past it
    /// the answer is "pending" and the payment is settled later.
    let deadline: Duration
    let settlement: PaymentSettlement

    /// - Parameters:
    ///   - deadline: how long a checkout's answer may wait for the provider.
    ///   - actionTimeout: how long the stock stays reserved for a payment waiting on the customer.
    public init(
        store: any OrderStore, payments: any PaymentGateway, system: SystemContext, deadline: Duration = .seconds(10),
        actionTimeout: Duration = .seconds(900)
    ) {
        self.store = store
        self.payments = payments
        self.system = system
        self.deadline = deadline
        self.settlement = PaymentSettlement(store: store, payments: payments, system: system, actionTimeout: actionTimeout)
    }

    /// Places an order from the cart and pays for it. A repeated Idempotency-Key with the same
    /// body answers with the first order as it stands now; nothing is charged again.
    /// - Throws: `ValidationError`, what `OrderStore.placeOrder` throws.
    public func checkout(_ request: CheckoutRequest) async throws -> CheckoutOutcome {
        try request.validate()
        let (order, created) = try await store.placeOrder(id: system.newID(), request: request, at: system.now())
        guard created else { return Self.replay(order) }
        // The payment goes on past the deadline (its outcome is recorded when it comes); only the
        // answer stops waiting for it.
        let payment = Task(executorPreference: system.taskExecutor) { try await pay(order, paymentMethod: request.paymentMethod) }
        return try await Self.first(of: payment, orAfter: deadline, .pending(order), on: system.taskExecutor)
    }

    /// `task`'s result, or `fallback` once `deadline` has passed, whichever comes first; the task
    /// itself goes on. (A task group would wait for its children, and awaiting an unstructured
    /// task's value does not end on cancellation, hence a continuation resumed once.)
    static func first<T: Sendable>(
        of task: Task<T, any Error>, orAfter deadline: Duration, _ fallback: T, on executor: (any TaskExecutor)? = nil
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = ResumeOnce(continuation)
            let timer = Task(executorPreference: executor) {
                // Cancelled (the payment answered first): the fallback must not race the answer.
                guard (try? await Task.sleep(for: deadline)) != nil else { return }
                once.resume(with: .success(fallback))
            }
            Task(executorPreference: executor) {
                let result = await task.result
                once.resume(with: result)
                timer.cancel()
            }
        }
    }

    /// Asks the provider what became of the customer's payment (the app's "I'm back" after
    /// 3-D Secure) and settles the order from that answer, never from the client's word.
    /// - Throws: `OrderError.orderNotFound`, `PaymentError` when the provider cannot say,
    ///   `StoreUnavailable`.
    public func refresh(orderID: UUID, customerID: UUID) async throws -> Order {
        guard let order = try await store.order(id: orderID, customerID: customerID) else { throw OrderError.orderNotFound(orderID) }
        guard [.pendingPayment, .requiresAction].contains(order.status), let paymentID = order.paymentIntentID else { return order }
        return try await settlement.apply(try await payments.payment(id: paymentID), to: order)
    }

    /// Creates the payment and, with a payment method, confirms it; without one the app confirms
    /// it (the payment sheet), so the order waits `requires_action` with the client secret.
    private func pay(_ order: Order, paymentMethod: String?) async throws -> CheckoutOutcome {
        let key = "order-\(order.id.lowercasedText)"
        do {
            let intent = try await payments.createPayment(
                amount: order.total, paymentMethod: paymentMethod, orderID: order.id, idempotencyKey: key + "-create")
            guard try await store.attachPayment(orderID: order.id, paymentIntentID: intent.id, at: system.now()) else {
                // Cancelled while the payment was being created: never confirm it.
                _ = try? await payments.cancelPayment(id: intent.id, idempotencyKey: key + "-cancel")
                return Self.replay(try await store.order(id: order.id, customerID: order.customerID) ?? order)
            }
            var attached = order
            attached.paymentIntentID = intent.id
            let confirmed =
                order.confirmedByApp ? intent : try await payments.confirmPayment(id: intent.id, idempotencyKey: key + "-confirm")
            let settled = try await settlement.apply(confirmed, to: attached)
            switch settled.status {
            case .paid: return .paid(settled)
            case .paymentFailed: return .declined(settled, code: settled.declineCode ?? Order.unspecifiedDeclineCode)
            default: return .pending(settled)
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
        case .pendingPayment, .requiresAction: return .pending(order)
        case .paymentFailed: return .declined(order, code: order.declineCode ?? Order.unspecifiedDeclineCode)
        case .cancelled: return .cancelled(order)
        case .paid, .refundPending, .refunded: return .paid(order)
        }
    }
}

/// Resumes a continuation once, with whichever result comes first.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<T, any Error>) {
        continuation.withLock { waiting in
            waiting?.resume(with: result)
            waiting = nil
        }
    }
}
