// once: created by scenegen from Specs/Order.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension OrderUseCase {
    /// `POST /v1/admin/returns/{id}/received` (auth: admin): the units came back. The return's
    /// lines are refunded (a staff refund, `RefundOrderUseCase`, under a key of the return's own,
    /// so a repeated receipt refunds once) and restocked once the refund succeeds when `restock`
    /// says so; then the return is `received`. With `refund` false it is received at once, with
    /// no refund and no restock, when refunds took its units before (the stock is then the
    /// staff's to adjust).
    /// - Throws: `ValidationError` for a return holding no lines, or a `restock` another than its
    ///   first receipt's; `StoreUnavailable`.
    public func receiveReturn(_ input: OrderReceiveReturnInput) async throws -> OrderReceiveReturnOutcome {
        guard let payments else { return .paymentsNotConfigured }
        guard let asked = try await returns.returnRequest(id: input.id) else { return .notFound(id: input.id) }
        guard asked.status == .approved else { return .returnNotApproved(returnStatus: asked.status.rawValue) }
        // A refund without lines or an amount is of the whole remainder: a return refunds its
        // lines only. (Requests have needed a line since `min_items`; one stored before has none.)
        guard !asked.lines.isEmpty else { throw ValidationError([FieldError("lines", "the return holds none: nothing to refund")]) }
        guard input.refund else {
            guard !input.restock else {
                throw ValidationError([
                    FieldError("restock", "must be false with refund false: adjust the stock through POST /v1/admin/variants/{id}/stock")
                ])
            }
            return try await receiveWithoutRefund(asked)
        }
        let request = RefundRequest(
            orderID: asked.orderID, amount: nil, lines: asked.lines, reason: .requestedByCustomer, restock: input.restock,
            idempotencyKey: ReturnRefundKey.of(asked.id), returnID: asked.id)
        let refund: Refund
        do {
            switch try await RefundOrderUseCase(store: refundStore, payments: payments, system: system).refund(request) {
            case .succeeded(let done), .pending(let done): refund = done
            case .failed(let failed):
                _ = try await returns.attachRefund(returnID: asked.id, refundID: failed.id)
                return .refundFailed(refundID: failed.id, refundStatus: failed.status.rawValue)
            }
        } catch let error as RefundError {
            switch error {
            case .notRefundable(let status): return .orderNotRefundable(orderStatus: status.rawValue)
            case .exceedsCaptured(let remaining):
                return .refundExceedsCaptured(remaining: remaining)
            case .invalid(let errors): return .linesNotRefundable(errors: errors)
            case .orderNotFound: return .notFound(id: input.id)  // unreachable: a return's order is a foreign key
            case .foreignCurrency: throw error  // unreachable: the lines are valued in the order's own currency
            case .idempotencyKeyReused:
                // The refund is keyed by the return: an earlier receipt said otherwise.
                throw ValidationError([FieldError("restock", "must be what this return's first receipt said")])
            }
        } catch ReturnError.wrongState(let status) {
            // Another receipt of it came first: nothing was refunded.
            return .returnNotApproved(returnStatus: status.rawValue)
        }
        _ = try await returns.attachRefund(returnID: asked.id, refundID: refund.id)
        do {
            return .received(try await returns.move(id: asked.id, from: .approved, to: .received, restock: input.restock, at: system.now()))
        } catch ReturnError.wrongState(let status) {
            return .returnNotApproved(returnStatus: status.rawValue)
        }
    }

    private func receiveWithoutRefund(_ asked: ReturnRequest) async throws -> OrderReceiveReturnOutcome {
        do {
            return .received(try await returns.receiveWithoutRefund(id: asked.id, at: system.now()))
        } catch let error as ReturnError {
            switch error {
            case .wrongState(let status): return .returnNotApproved(returnStatus: status.rawValue)
            case .notRefunded(let errors): return .linesNotRefunded(errors: errors)
            case .returnNotFound: return .notFound(id: asked.id)
            default: throw error
            }
        }
    }
}
