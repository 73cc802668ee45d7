import Domain
import Foundation

/// Settles orders a checkout left `pending_payment`, refunds left `refund_pending` and staff
/// refunds left `pending` (the provider did not answer, or its answer was not final) by asking
/// the provider what became of them, and cancels the payments of orders left `requires_action`
/// past their deadline (the customer never completed 3-D Secure), releasing their stock. Only a definite provider status settles an order; an error of any kind, a refused key
/// included, leaves it as it was for the next pass. Safe to run on several instances at once:
/// every settlement is a conditional update from the state the order was read in.
public struct ReconcileUseCase: Sendable {
    /// How orders ended up after one pass.
    public struct Report: Equatable, Sendable {
        public var paid = 0
        public var failed = 0
        /// Orders refunded in full, and staff refunds that succeeded.
        public var refunded = 0
        /// Refunds the provider answered `failed` or `canceled`: those orders are paid again, and
        /// those staff refunds' amounts free again.
        public var refundsFailed = 0
        public var stillPending = 0
        public init() {}
    }

    /// Room beyond the provider calls' own deadlines for the database steps between them and for
    /// clocks that differ between instances.
    public static let margin: Duration = .seconds(30)

    let store: any OrderStore
    /// Staff refunds; nil settles orders only.
    let refunds: (any RefundStore)?
    let payments: any PaymentGateway
    let system: SystemContext
    let settlement: PaymentSettlement

    /// - Parameter actionTimeout: how long the stock stays reserved for a payment waiting on the
    ///   customer (an order the reconciler finds so is given that long from now).
    public init(
        store: any OrderStore, refunds: (any RefundStore)? = nil, payments: any PaymentGateway, system: SystemContext,
        actionTimeout: Duration = .seconds(900)
    ) {
        self.store = store
        self.refunds = refunds
        self.payments = payments
        self.system = system
        self.settlement = PaymentSettlement(store: store, payments: payments, system: system, actionTimeout: actionTimeout)
    }

    /// How long an order may still be inside the request that made it pending: a checkout makes
    /// two provider calls (create, confirm), a refund one, each at most `longestCall`.
    public var minimumAge: Duration { Self.minimumAge(for: payments) }

    /// `minimumAge` with `payments`: also how long a checkout may still be paying, and a
    /// payment event still being handled.
    static func minimumAge(for payments: any PaymentGateway) -> Duration { payments.longestCall * 2 + margin }

    /// One pass over the orders and refunds left pending and unchanged for longer than `age`,
    /// never less than `minimumAge`: a younger one may still be inside a checkout or a cancel
    /// talking to the provider, and settling it then could fail a payment that is about to
    /// succeed. Each is claimed, so a later pass tries the others first; expired 3-D Secure
    /// payments are cancelled whatever `age` says.
    /// - Throws: `StoreUnavailable`.
    public func reconcile(olderThan age: Duration = .zero, limit: Int = 500) async throws -> Report {
        var report = Report()
        let cutoff = system.now() - max(age, minimumAge)
        for order in try await store.claimPendingOrders(changedBefore: cutoff, at: system.now(), limit: limit) {
            switch try await settlePayment(order) {
            case .paid: report.paid += 1
            case .paymentFailed: report.failed += 1
            default: report.stillPending += 1
            }
        }
        // Whatever `age`: an expired 3-D Secure payment is cancelled as soon as it expires. The
        // last change only spaces out the attempts at one the provider cannot answer about, after
        // the first.
        for order in try await store.claimOrdersAwaitingAction(
            expiredBefore: system.now(), changedBefore: system.now() - minimumAge, at: system.now(), limit: limit)
        {
            switch try await expireAction(order) {
            case .paid: report.paid += 1
            case .paymentFailed: report.failed += 1
            default: report.stillPending += 1
            }
        }
        for order in try await store.claimRefundPendingOrders(changedBefore: cutoff, at: system.now(), limit: limit) {
            switch try await settleRefund(order) {
            case .refunded: report.refunded += 1
            case .paid: report.refundsFailed += 1
            default: report.stillPending += 1
            }
        }
        if let refunds {
            let staff = StaffRefunds(store: refunds, payments: payments, system: system)
            for refund in try await refunds.claimUnsettledRefunds(changedBefore: cutoff, at: system.now(), limit: limit) {
                switch RefundOutcome(try await staff.settle(refund)) {
                case .succeeded: report.refunded += 1
                case .failed: report.refundsFailed += 1
                case .pending: report.stillPending += 1
                }
            }
        }
        return report
    }

    private func settlePayment(_ order: Order) async throws -> OrderStatus {
        // No payment id: the create call never completed, and since confirmation only ever
        // follows a recorded id, nothing was charged.
        guard let paymentID = order.paymentIntentID else {
            return try await store.markPaymentFailed(orderID: order.id, declineCode: "payment_not_started", at: system.now()).status
        }
        do {
            var intent = try await payments.payment(id: paymentID)
            if intent.status == .requiresConfirmation && !order.confirmedByApp {
                // Never confirmed: cancel it so it cannot be charged later. A refused cancel may
                // mean a confirm won the race: read it again.
                do {
                    intent = try await payments.cancelPayment(
                        id: paymentID, idempotencyKey: PaymentAttemptKey.key("cancel", of: order, attempt: system.newID()))
                    if intent.status == .canceled {
                        return try await store.markPaymentFailed(orderID: order.id, declineCode: "payment_not_confirmed", at: system.now())
                            .status
                    }
                } catch is PaymentError {
                    intent = try await payments.payment(id: paymentID)
                }
            }
            // Waiting on the customer (the checkout's answer was lost): requires_action, with its
            // deadline from now.
            return try await settlement.apply(intent, to: order).status
        } catch is PaymentError {
            return .pendingPayment
        }
    }

    /// The customer never completed 3-D Secure: cancel the payment so it cannot be charged
    /// later, then settle from the provider's answer. A refused cancel may mean the customer
    /// completed it meanwhile: read the payment again and settle from that.
    private func expireAction(_ order: Order) async throws -> OrderStatus {
        guard let paymentID = order.paymentIntentID else { return order.status }
        do {
            let intent: PaymentIntent
            do {
                intent = try await payments.cancelPayment(
                    id: paymentID, idempotencyKey: PaymentAttemptKey.key("expire", of: order, attempt: system.newID()))
            } catch is PaymentError {
                intent = try await payments.payment(id: paymentID)
            }
            return try await settlement.apply(intent, to: order).status
        } catch is PaymentError {
            return order.status
        }
    }

    /// Settles the order's staff refunds that are not settled yet (see `StaffRefunds.settle`).
    /// - Returns: how many the provider settled.
    /// - Throws: `StoreUnavailable`.
    func settleStaffRefunds(of order: Order) async throws -> Int {
        guard let refunds else { return 0 }
        let staff = StaffRefunds(store: refunds, payments: payments, system: system)
        var settled = 0
        for refund in try await refunds.unsettledRefunds(orderID: order.id) where try await staff.settle(refund).status != refund.status {
            settled += 1
        }
        return settled
    }

    /// Settles a `refund_pending` order from the provider's refund (also for a refund webhook).
    func settleRefund(_ order: Order) async throws -> OrderStatus {
        guard let paymentID = order.paymentIntentID else { return .refundPending }
        let refunds = OrderRefunds(store: store, payments: payments, system: system, actor: .system)
        do {
            if let known = order.refund { return try await refunds.record(order, try await payments.refund(id: known.id)) }
            // The refund's answer was lost: find it at the provider, or ask for it again if the
            // provider never made it (the same key, so it is made at most once). Only this
            // order's own refund counts, told by its key: a staff refund of the same payment is
            // not the cancel's.
            let found = try await payments.refunds(paymentID: paymentID).filter { $0.key == OrderRefunds.key(order) }
            let settling = found.first { $0.status == .succeeded } ?? found.first { $0.status == .pending || $0.status == .requiresAction }
            if let refund = settling ?? found.first { return try await refunds.record(order, refund) }
            return try await refunds.issue(order, paymentID: paymentID)
        } catch is PaymentError {
            // Unanswered, or refused (then `issue` made the order paid again).
            return try await store.order(id: order.id, customerID: order.customerID)?.status ?? .refundPending
        }
    }
}
