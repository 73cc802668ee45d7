import Domain
import Foundation

/// A `ReturnStore` holding no returns: every step finds none.
struct MockReturnStore: ReturnStore {
    func request(id: UUID, orderID: UUID, customerID: UUID, lines: [RefundLine], reason: String, at: Date) async throws -> ReturnRequest {
        throw ReturnError.orderNotFound(orderID)
    }

    func move(id: UUID, from: ReturnStatus, to: ReturnStatus, restock: Bool?, at: Date) async throws -> ReturnRequest {
        throw ReturnError.returnNotFound(id)
    }

    func receiveWithoutRefund(id: UUID, at: Date) async throws -> ReturnRequest {
        throw ReturnError.returnNotFound(id)
    }

    func returnRequest(id: UUID) async throws -> ReturnRequest? { nil }

    func staffPage(status: ReturnStatus?, after cursor: PageCursor?, limit: Int) async throws -> [ReturnRequest] { [] }

    func returns(orderID: UUID, customerID: UUID) async throws -> [ReturnRequest]? { nil }

    func attachRefund(returnID: UUID, refundID: UUID) async throws -> ReturnRequest { throw ReturnError.returnNotFound(returnID) }
}
