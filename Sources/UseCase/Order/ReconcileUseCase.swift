import Domain
import Foundation

/// Settles orders a checkout left `pending_payment` (the provider did not answer) by asking the
/// provider what became of their payment. Safe to run on several instances at once: every
/// settlement is a conditional update from `pending_payment`.
public struct ReconcileUseCase: Sendable {
    /// How orders ended up after one pass.
    public struct Report: Equatable, Sendable {
        public var paid = 0
        public var failed = 0
        public var stillPending = 0
        public init() {}
    }

    let store: any OrderStore
    let payments: any PaymentGateway
    let system: SystemContext

    public init(store: any OrderStore, payments: any PaymentGateway, system: SystemContext) {
        self.store = store
        self.payments = payments
        self.system = system
    }

    /// One pass over the orders pending for longer than `age` (younger ones may still be in a
    /// checkout that is talking to the provider).
    /// - Throws: `StoreUnavailable`.
    public func reconcile(olderThan age: TimeInterval, limit: Int = 500) async throws -> Report {
        var report = Report()
        let now = system.now()
        for order in try await store.pendingOrders(placedBefore: now.addingTimeInterval(-age), limit: limit) {
            switch try await settle(order) {
            case .paid: report.paid += 1
            case .paymentFailed: report.failed += 1
            default: report.stillPending += 1
            }
        }
        return report
    }

    private func settle(_ order: Order) async throws -> OrderStatus {
        let key = "order-\(order.id.uuidString.lowercased())"
        // No payment id: the create call never completed, and since confirmation only ever
        // follows a recorded id, nothing was charged.
        guard let paymentID = order.paymentIntentID else {
            return try await store.markPaymentFailed(orderID: order.id, declineCode: "payment_not_started", at: system.now()).status
        }
        do {
            let intent = try await payments.payment(id: paymentID)
            switch intent.status {
            case .succeeded, .requiresCapture:
                return try await store.markPaid(orderID: order.id, at: system.now()).status
            case .canceled, .requiresPaymentMethod:
                return try await store.markPaymentFailed(orderID: order.id, declineCode: "payment_failed", at: system.now()).status
            case .requiresConfirmation, .requiresAction:
                // Never confirmed (or waiting on the customer): cancel it so it cannot be charged
                // later, then fail the order and release its stock.
                _ = try await payments.cancelPayment(id: paymentID, idempotencyKey: key + "-cancel")
                return try await store.markPaymentFailed(orderID: order.id, declineCode: "payment_not_confirmed", at: system.now()).status
            case .processing:
                return .pendingPayment
            }
        } catch let error as PaymentError where error.outcomeUnknown {
            return .pendingPayment
        } catch is PaymentError {
            return try await store.markPaymentFailed(orderID: order.id, declineCode: "payment_failed", at: system.now()).status
        }
    }
}
