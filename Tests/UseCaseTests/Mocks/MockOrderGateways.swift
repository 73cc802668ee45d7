import Domain
import Foundation
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

    func attachPayment(orderID: UUID, paymentIntentID: String) async throws -> Bool {
        state.withLock { state in
            state.calls.append("attach \(paymentIntentID)")
            return state.order.status == .pendingPayment
        }
    }

    func transition(orderID: UUID, from: OrderStatus, to: OrderStatus, restock: Bool, at: Date) async throws -> Bool {
        state.withLock { state in
            state.calls.append("\(from.rawValue)->\(to.rawValue)\(restock ? " restock" : "")")
            guard state.order.status == from else { return false }
            state.order.status = to
            return true
        }
    }

    func markPaid(orderID: UUID, at: Date) async throws -> Order {
        state.withLock { state in
            state.calls.append("paid")
            state.order.status = .paid
            return state.order
        }
    }

    func markPaymentFailed(orderID: UUID, declineCode: String, at: Date) async throws -> Order {
        state.withLock { state in
            state.calls.append("failed \(declineCode)")
            state.order.status = .paymentFailed
            return state.order
        }
    }

    func order(id: UUID, customerID: UUID) async throws -> Order? {
        state.withLock { state in
            state.calls.append("load")
            return state.order.id == id ? state.order : nil
        }
    }
    func orders(customerID: UUID, after cursor: PageCursor?, limit: Int) async throws -> [Order] { throw UnstubbedCall(call: "orders") }

    func pendingOrders(placedBefore cutoff: Date, limit: Int) async throws -> [Order] {
        state.withLock { state in
            state.calls.append("pending")
            return state.order.status == .pendingPayment ? [state.order] : []
        }
    }
}

/// A `PaymentGateway` whose confirm answers what the test says; records calls with their keys.
final class MockPaymentGateway: PaymentGateway, Sendable {
    private let state = Mutex<[String]>([])
    let confirmResult: @Sendable () throws -> PaymentStatus
    let retrieveResult: (@Sendable () throws -> PaymentStatus)?

    init(confirm: @escaping @Sendable () throws -> PaymentStatus, retrieve: (@Sendable () throws -> PaymentStatus)? = nil) {
        confirmResult = confirm
        retrieveResult = retrieve
    }

    var calls: [String] { state.withLock { $0 } }

    func createPayment(amount: Money, paymentMethod: String, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent {
        state.withLock { $0.append("create \(idempotencyKey)") }
        return PaymentIntent(id: "pi_1", status: .requiresConfirmation, amount: amount)
    }

    func confirmPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
        state.withLock { $0.append("confirm \(idempotencyKey)") }
        return PaymentIntent(id: id, status: try confirmResult(), amount: Money(amount: 1, currency: Currency("JPY")!))
    }

    func payment(id: String) async throws -> PaymentIntent {
        state.withLock { $0.append("retrieve \(id)") }
        guard let retrieveResult else { throw UnstubbedCall(call: "payment") }
        return PaymentIntent(id: id, status: try retrieveResult(), amount: Money(amount: 1, currency: Currency("JPY")!))
    }

    func cancelPayment(id: String, idempotencyKey: String) async throws -> PaymentIntent {
        state.withLock { $0.append("cancel") }
        return PaymentIntent(id: id, status: .canceled, amount: Money(amount: 1, currency: Currency("JPY")!))
    }

    func refund(paymentID: String, amount: Money?, idempotencyKey: String) async throws -> PaymentRefund {
        state.withLock { $0.append("refund \(amount?.amount ?? -1)") }
        return PaymentRefund(id: "re_1", amount: amount ?? Money(amount: 0, currency: Currency("JPY")!), succeeded: true)
    }
}
