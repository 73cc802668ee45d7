import Domain

extension PaymentWebhookUseCase {
    /// Acts on a recorded event through the same paths as everything else - the payment is read
    /// from the provider and settled by `PaymentTransition`, a refund (a cancel's or the
    /// staff's) by the reconciler's refund settlement - so an event that comes twice, late, out
    /// of order or never changes nothing the other inputs would not; then notes it handled.
    /// - Returns: the order's status afterwards, when the event concerns one of ours.
    /// - Throws: `PaymentError` (the provider could not be read: the reconciler settles it
    ///   later), `StoreUnavailable`.
    @discardableResult
    public func handle(_ event: PaymentEvent) async throws -> OrderStatus? {
        guard let payments, let paymentID = event.paymentIntentID, let order = try await orders.order(paymentIntentID: paymentID)
        else {
            try await events.markHandled(eventID: event.id, at: system.now())
            return nil
        }
        let reconciler = ReconcileUseCase(store: orders, refunds: refunds, payments: payments, system: system, actionTimeout: actionTimeout)
        var status = order.status
        switch event.kind {
        case .payment:
            let settlement = PaymentSettlement(store: orders, payments: payments, system: system, actionTimeout: actionTimeout)
            status = try await settlement.apply(try await payments.payment(id: paymentID), to: order).status
        case .refund where order.status == .refundPending:
            // Only a refund already recorded: one whose answer is not in yet may still be on
            // its way from the cancel that asked for it, and settling then would ask for it
            // again (the reconciler waits `minimumAge` for the same reason, then settles it).
            if order.refund != nil { status = try await reconciler.settleRefund(order) }
        case .refund:
            // A staff refund of a paid order: read from the provider, never the event's word.
            _ = try await reconciler.settleStaffRefunds(of: order)
            status = try await orders.order(id: order.id, customerID: order.customerID)?.status ?? status
        case .dispute, .other:
            break
        }
        try await events.markHandled(eventID: event.id, at: system.now())
        return status
    }
}
