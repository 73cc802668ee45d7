import Domain
import Foundation
import MockSupport

/// A `ReturnStore` for tests that do not reach returns: every call fails as unstubbed, so a use
/// case that starts reading returns cannot pass its tests by accident.
struct MockReturnStore: ReturnStore {
    func request(id: UUID, orderID: UUID, customerID: UUID, lines: [RefundLine], reason: String, at: Date) async throws -> ReturnRequest {
        throw UnstubbedCall(call: "request")
    }

    func move(id: UUID, from: ReturnStatus, to: ReturnStatus, restock: Bool?, at: Date) async throws -> ReturnRequest {
        throw UnstubbedCall(call: "move")
    }

    func receiveWithoutRefund(id: UUID, at: Date) async throws -> ReturnRequest { throw UnstubbedCall(call: "receiveWithoutRefund") }

    func returnRequest(id: UUID) async throws -> ReturnRequest? { throw UnstubbedCall(call: "returnRequest") }

    func staffPage(status: ReturnStatus?, after cursor: PageCursor?, limit: Int) async throws -> [ReturnRequest] {
        throw UnstubbedCall(call: "staffPage")
    }

    func returns(orderID: UUID, customerID: UUID) async throws -> [ReturnRequest]? { throw UnstubbedCall(call: "returns") }

    func attachRefund(returnID: UUID, refundID: UUID) async throws -> ReturnRequest { throw UnstubbedCall(call: "attachRefund") }
}
