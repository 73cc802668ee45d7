import Domain
import Foundation

/// The staff's refunds, partial or full, like checkout: the refund is recorded and its amount
/// reserved in the database first (bounded there by what was captured), then the provider is
/// asked outside any transaction with a key derived from the refund, then its answer recorded.
public struct RefundOrderUseCase: Sendable {
    let store: any RefundStore
    let payments: any PaymentGateway
    let system: SystemContext

    public init(store: any RefundStore, payments: any PaymentGateway, system: SystemContext) {
        self.store = store
        self.payments = payments
        self.system = system
    }

    /// A repeated Idempotency-Key with the same body answers with that refund as it stands now.
    /// - Returns: succeeded, pending (no final answer: reconciled later) or failed (released).
    /// - Throws: `ValidationError`, `RefundError`, `StoreUnavailable`.
    public func refund(_ request: RefundRequest) async throws -> RefundOutcome {
        try request.validate()
        let (refund, created) = try await store.reserveRefund(id: system.newID(), request: request, at: system.now())
        guard created else { return RefundOutcome(refund) }
        return RefundOutcome(try await StaffRefunds(store: store, payments: payments, system: system).issue(refund))
    }
}

/// Asks the provider for a staff refund and records its answer. Shared by the request, and by
/// the reconciler for refunds left without a final answer.
struct StaffRefunds: Sendable {
    let store: any RefundStore
    let payments: any PaymentGateway
    let system: SystemContext

    /// Asks for the refund with its own key and records the answer. No answer leaves it
    /// `pending`; a definite refusal records it `failed`, which releases its amount.
    /// - Throws: `StoreUnavailable`.
    func issue(_ refund: Refund) async throws -> Refund {
        let answer: PaymentRefund
        do {
            answer = try await payments.refund(
                paymentID: refund.paymentIntentID, amount: refund.amount, idempotencyKey: refund.providerIdempotencyKey)
        } catch let error as PaymentError where error.outcomeUnknown {
            return refund
        } catch is PaymentError {
            return try await store.recordRefund(id: refund.id, status: .failed, providerRefundID: nil, at: system.now())
        }
        return try await store.recordRefund(id: refund.id, status: answer.status, providerRefundID: answer.id, at: system.now())
    }

    /// Settles a claimed refund: reads it at the provider when its id is known, else finds it
    /// among the payment's refunds by its key (kept in the refund's metadata: an answer lost more
    /// than the 24 hours the provider keeps an idempotency key is still found), else asks for it
    /// again with the same key. Only a provider status settles it: an error of any kind, a
    /// refused key included, leaves it for the next pass.
    /// - Returns: the refund as recorded now.
    /// - Throws: `StoreUnavailable`.
    func settle(_ refund: Refund) async throws -> Refund {
        let answer: PaymentRefund
        do {
            if let providerID = refund.providerRefundID {
                answer = try await payments.refund(id: providerID)
            } else if let made = try await payments.refunds(paymentID: refund.paymentIntentID).first(where: {
                $0.key == refund.providerIdempotencyKey
            }) {
                answer = made
            } else {
                answer = try await payments.refund(
                    paymentID: refund.paymentIntentID, amount: refund.amount, idempotencyKey: refund.providerIdempotencyKey)
            }
        } catch is PaymentError {
            return refund
        }
        return try await store.recordRefund(id: refund.id, status: answer.status, providerRefundID: answer.id, at: system.now())
    }
}
