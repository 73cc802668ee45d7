import Domain
import Foundation
import MockSupport
import Synchronization

/// A `RefundStore` holding refunds in memory: `reserveRefund` makes the refund the test gave
/// (`created` as the test says, for a replay); records every call.
final class MockRefundStore: RefundStore, Sendable {
    private let state: Mutex<(refunds: [UUID: Refund], calls: [String])>
    private let created: Bool

    init(_ refunds: [Refund] = [], created: Bool = true) {
        state = Mutex((Dictionary(uniqueKeysWithValues: refunds.map { ($0.id, $0) }), []))
        self.created = created
    }

    var calls: [String] { state.withLock { $0.calls } }
    func refund(_ id: UUID) -> Refund? { state.withLock { $0.refunds[id] } }

    func reserveRefund(id: UUID, request: RefundRequest, at: Date) async throws -> (refund: Refund, created: Bool) {
        try state.withLock { state in
            state.calls.append("reserve \(request.amount.map { String($0.amount) } ?? "rest")")
            guard let refund = state.refunds[created ? id : state.refunds.keys.first ?? id] else {
                throw UnstubbedCall(call: "reserveRefund")
            }
            return (refund, created)
        }
    }

    func recordRefund(id: UUID, status: RefundStatus, providerRefundID: String?, at: Date) async throws -> Refund {
        state.withLock { state in
            state.calls.append("record \(status.rawValue) \(providerRefundID ?? "-")")
            var refund = state.refunds[id]!
            if refund.status == .pending || refund.status == .requiresAction {
                refund.status = status
                refund.providerRefundID = refund.providerRefundID ?? providerRefundID
            }
            state.refunds[id] = refund
            return refund
        }
    }

    func unsettledRefunds(orderID: UUID) async throws -> [Refund] {
        state.withLock { state in
            state.calls.append("unsettled")
            return state.refunds.values.filter { $0.orderID == orderID && ($0.status == .pending || $0.status == .requiresAction) }
        }
    }

    func claimUnsettledRefunds(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Refund] {
        state.withLock { state in
            state.calls.append("claim")
            return state.refunds.values.filter { $0.status == .pending || $0.status == .requiresAction }
        }
    }
}
