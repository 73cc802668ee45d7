import Domain
import Foundation
import MockSupport
import Synchronization

/// An `OrderStore` that hands out one prepared order and records what the use case did with it.
final class MockOrderStore: OrderStore, Sendable {
    private let state: Mutex<(order: Order, created: Bool, calls: [String])>

    init(order: Order, created: Bool = true) {
        state = Mutex((order, created, []))
    }

    var calls: [String] { state.withLock { $0.calls } }

    func placeOrder(id: UUID, request: CheckoutRequest, at: Date) async throws -> (order: Order, created: Bool) {
        state.withLock { state in
            state.calls.append("place")
            return (state.order, state.created)
        }
    }

    func attachPayment(orderID: UUID, paymentIntentID: String, at: Date) async throws -> Bool {
        state.withLock { state in
            state.calls.append("attach \(paymentIntentID)")
            return state.order.status == .pendingPayment
        }
    }

    func transition(
        orderID: UUID, from: OrderStatus, to: OrderStatus, restock: Bool, refund: RefundRecord?, by actor: EventActor, at: Date
    ) async throws -> Bool {
        state.withLock { state in
            state.calls.append(
                "\(from.rawValue)->\(to.rawValue)\(restock ? " restock" : "")\(refund.map { " \($0.id) \($0.status.rawValue)" } ?? "")")
            guard state.order.status == from else { return false }
            state.order.status = to
            // Like the real store: a new claim forgets an earlier claim's refund.
            if let refund { state.order.refund = refund } else if from == .paid, to == .refundPending { state.order.refund = nil }
            return true
        }
    }

    /// Like the real store: only an order still waiting on its payment moves.
    func markPaid(orderID: UUID, at: Date) async throws -> Order {
        state.withLock { state in
            state.calls.append("paid")
            if [.pendingPayment, .requiresAction].contains(state.order.status) { state.order.status = .paid }
            return state.order
        }
    }

    func markPaymentFailed(orderID: UUID, declineCode: String, at: Date) async throws -> Order {
        state.withLock { state in
            state.calls.append("failed \(declineCode)")
            if [.pendingPayment, .requiresAction].contains(state.order.status) {
                state.order.status = .paymentFailed
                state.order.declineCode = declineCode
            }
            return state.order
        }
    }

    func markRequiresAction(orderID: UUID, action: PaymentAction, expiresAt: Date, at: Date) async throws -> Order? {
        state.withLock { state in
            state.calls.append("requires action until \(expiresAt.timeIntervalSince1970)")
            guard state.order.status == .pendingPayment else { return nil }
            state.order.status = .requiresAction
            state.order.action = action
            state.order.actionExpiresAt = expiresAt
            return state.order
        }
    }

    /// The prepared order counts as last changed when it was created.
    func claimOrdersAwaitingAction(expiredBefore expiry: Date, changedBefore cutoff: Date, at: Date, limit: Int) async throws
        -> [Order]
    {
        state.withLock { state in
            state.calls.append("awaiting action")
            let expires = state.order.actionExpiresAt ?? .distantFuture
            return state.order.status == .requiresAction && expires < expiry && state.order.createdAt < cutoff ? [state.order] : []
        }
    }

    func order(paymentIntentID: String) async throws -> Order? {
        state.withLock { state in
            state.calls.append("load \(paymentIntentID)")
            return state.order.paymentIntentID == paymentIntentID ? state.order : nil
        }
    }

    func order(id: UUID, customerID: UUID) async throws -> Order? {
        state.withLock { state in
            state.calls.append("load")
            return state.order.id == id ? state.order : nil
        }
    }
    func orders(customerID: UUID, progress: OrderProgress?, after cursor: PageCursor?, limit: Int) async throws -> [Order] {
        throw UnstubbedCall(call: "orders")
    }

    /// The prepared order counts as last changed when it was created.
    func claimPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order] {
        state.withLock { state in
            state.calls.append("pending")
            return state.order.status == .pendingPayment && state.order.createdAt < cutoff ? [state.order] : []
        }
    }

    /// The prepared order counts as last changed when it was created.
    func claimRefundPendingOrders(changedBefore cutoff: Date, at: Date, limit: Int) async throws -> [Order] {
        state.withLock { state in
            state.calls.append("refund pending")
            return state.order.status == .refundPending && state.order.createdAt < cutoff ? [state.order] : []
        }
    }
}

/// A `PaymentGateway` whose answers the test says; records calls with their keys. A stub left
/// nil throws `UnstubbedCall`, except cancel and refund, which succeed unless told otherwise.
final class MockPaymentGateway: PaymentGateway, Sendable {
    private let state = Mutex<[String]>([])
    let confirmResult: @Sendable () throws -> PaymentStatus
    let retrieveResult: (@Sendable () throws -> PaymentStatus)?
    let cancelResult: @Sendable () throws -> PaymentStatus
    let refundResult: @Sendable () throws -> RefundStatus
    let retrieveRefundResult: (@Sendable () throws -> RefundStatus)?
    let listRefundsResult: (@Sendable () throws -> [PaymentRefund])?
    let longestCall: Duration

    init(
        confirm: @escaping @Sendable () throws -> PaymentStatus, retrieve: (@Sendable () throws -> PaymentStatus)? = nil,
        cancel: @escaping @Sendable () throws -> PaymentStatus = { .canceled },
        refund: @escaping @Sendable () throws -> RefundStatus = { .succeeded },
        retrieveRefund: (@Sendable () throws -> RefundStatus)? = nil, listRefunds: (@Sendable () throws -> [PaymentRefund])? = nil,
        longestCall: Duration = .seconds(10)
    ) {
        confirmResult = confirm
        retrieveResult = retrieve
        cancelResult = cancel
        refundResult = refund
        retrieveRefundResult = retrieveRefund
        listRefundsResult = listRefunds
        self.longestCall = longestCall
    }

    func minimumCharge(in currency: Currency) -> Int64 { 1 }
    func maximumCharge(in currency: Currency) -> Int64 { .max }

    var calls: [String] { state.withLock { $0 } }

    private static let yen = Currency("JPY")!

    func createPayment(amount: Money, paymentMethod: String?, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent {
        state.withLock { $0.append("create \(idempotencyKey)") }
        return PaymentIntent(id: "pi_1", status: .requiresConfirmation, amount: amount)
    }

    func confirmPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
        state.withLock { $0.append("confirm \(idempotencyKey)") }
        return PaymentIntent(id: id, status: try confirmResult(), amount: Money(amount: 1, currency: Self.yen))
    }

    func payment(id: String) async throws -> PaymentIntent {
        state.withLock { $0.append("retrieve \(id)") }
        guard let retrieveResult else { throw UnstubbedCall(call: "payment") }
        return PaymentIntent(id: id, status: try retrieveResult(), amount: Money(amount: 1, currency: Self.yen))
    }

    /// The idempotency keys of the cancels asked for, in order.
    var cancelKeys: [String] { cancelKeysAsked.withLock { $0 } }
    private let cancelKeysAsked = Mutex<[String]>([])

    func cancelPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
        state.withLock { $0.append("cancel") }
        cancelKeysAsked.withLock { $0.append(idempotencyKey) }
        return PaymentIntent(id: id, status: try cancelResult(), amount: Money(amount: 1, currency: Self.yen))
    }

    func refund(paymentID: String, amount: Money?, idempotencyKey: String) async throws -> PaymentRefund {
        state.withLock { $0.append("refund \(amount?.amount ?? -1)") }
        return PaymentRefund(
            id: "re_1", amount: amount ?? Money(amount: 0, currency: Self.yen), status: try refundResult(), key: idempotencyKey)
    }

    func refund(id: String) async throws -> PaymentRefund {
        state.withLock { $0.append("retrieve refund \(id)") }
        guard let retrieveRefundResult else { throw UnstubbedCall(call: "refund(id:)") }
        return PaymentRefund(id: id, amount: Money(amount: 1, currency: Self.yen), status: try retrieveRefundResult())
    }

    func refunds(paymentID: String) async throws -> [PaymentRefund] {
        state.withLock { $0.append("list refunds \(paymentID)") }
        guard let listRefundsResult else { throw UnstubbedCall(call: "refunds(paymentID:)") }
        return try listRefundsResult()
    }
}
