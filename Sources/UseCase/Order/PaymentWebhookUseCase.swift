import Domain
import Foundation

/// The provider's webhooks: verified before anything is read, recorded once by event id, then
/// acted on through the same paths as everything else - the payment is read from the provider
/// and settled by `PaymentTransition`, a refund (a cancel's or the staff's) by the reconciler's
/// refund settlement - so an event that comes twice, late, out of order or never changes nothing
/// the other inputs would not.
public struct PaymentWebhookUseCase: Sendable {
    let verifier: any PaymentEventVerifier
    let events: any PaymentEventStore
    let orders: any OrderStore
    let payments: any PaymentGateway
    let system: SystemContext
    let settlement: PaymentSettlement
    let reconciler: ReconcileUseCase

    public init(
        verifier: any PaymentEventVerifier, events: any PaymentEventStore, orders: any OrderStore, payments: any PaymentGateway,
        system: SystemContext, actionTimeout: Duration, refunds: (any RefundStore)? = nil
    ) {
        self.verifier = verifier
        self.events = events
        self.orders = orders
        self.payments = payments
        self.system = system
        self.settlement = PaymentSettlement(store: orders, system: system, actionTimeout: actionTimeout)
        self.reconciler = ReconcileUseCase(
            store: orders, refunds: refunds, payments: payments, system: system, actionTimeout: actionTimeout)
    }

    /// Verifies and records an event. Nothing that calls the provider happens here, so the
    /// provider gets its answer fast; the caller then runs `handle` on what this returns.
    /// - Returns: the event, or nil when it was delivered before (acknowledge and ignore it).
    /// - Throws: `PaymentEventError` (nothing recorded), `StoreUnavailable`.
    public func receive(payload: [UInt8], signature: String?) async throws -> PaymentEvent? {
        let event = try verifier.event(payload: payload, signature: signature, now: system.now())
        return try await events.recordOnce(event, at: system.now()) ? event : nil
    }

    /// Acts on a recorded event and notes it handled.
    /// - Returns: the order's status afterwards, when the event concerns one of ours.
    /// - Throws: `PaymentError` (the provider could not be read: the reconciler settles it
    ///   later), `StoreUnavailable`.
    @discardableResult
    public func handle(_ event: PaymentEvent) async throws -> OrderStatus? {
        guard let paymentID = event.paymentIntentID, let order = try await orders.order(paymentIntentID: paymentID) else {
            try await events.markHandled(eventID: event.id, at: system.now())
            return nil
        }
        var status = order.status
        switch event.kind {
        case .payment:
            status = try await settlement.apply(try await payments.payment(id: paymentID), to: order).status
        case .refund where order.status == .refundPending:
            status = try await reconciler.settleRefund(order)
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
