import Foundation

public enum ReturnStatus: String, CaseIterable, Hashable, Sendable {
    case requested, approved, refused, received
}

/// A customer's request to send shipped units back: approved or refused by the staff, and on
/// receipt refunded through a staff refund of its lines (`refundID`), restocked as they decided.
public struct ReturnRequest: Hashable, Sendable {
    public let id: UUID
    public let orderID: UUID
    public let status: ReturnStatus
    public let reason: String
    public let lines: [RefundLine]
    /// Whether its units went back to stock; known once received.
    public let restock: Bool?
    public let refundID: UUID?
    public let createdAt: Date

    public init(
        id: UUID, orderID: UUID, status: ReturnStatus, reason: String, lines: [RefundLine], restock: Bool?, refundID: UUID?,
        createdAt: Date
    ) {
        self.id = id
        self.orderID = orderID
        self.status = status
        self.reason = reason
        self.lines = lines
        self.restock = restock
        self.refundID = refundID
        self.createdAt = createdAt
    }
}

public enum ReturnError: Error, Equatable, Sendable {
    case orderNotFound(UUID)
    /// Only an order with shipped units is returned (its progress is named).
    case notReturnable(OrderProgress)
    /// A line names a variant the order did not buy.
    case notOrdered(index: Int)
    /// A line asks for more units than were shipped and are in no other return.
    case beyondReturnable(index: Int, left: Int)
    case returnNotFound(UUID)
    /// The return is not in the state the step needs (its status is named).
    case wrongState(ReturnStatus)
    /// A return received without a refund holds units of a line that no refund took, or that
    /// another return holds (each line's error names how many are left).
    case notRefunded([FieldError])
}

/// Returns of orders on their store.
public protocol ReturnStore: Sendable {
    /// Records a return of a shipped order's units under the order's row lock, so two requests
    /// never return one unit twice.
    /// - Throws: `ReturnError`, `StoreUnavailable`.
    func request(
        id: UUID, orderID: UUID, customerID: UUID, lines: [RefundLine], reason: String, at: Date
    ) async throws -> ReturnRequest
    /// Moves a return from `from` to `to` (recording `restock` when given), or throws
    /// `ReturnError.wrongState` naming where it is.
    /// - Throws: `ReturnError`, `StoreUnavailable`.
    func move(id: UUID, from: ReturnStatus, to: ReturnStatus, restock: Bool?, at: Date) async throws -> ReturnRequest
    /// The returns of the customer's order, oldest first; `nil` when the order is none of theirs.
    /// - Throws: `StoreUnavailable`.
    func returns(orderID: UUID, customerID: UUID) async throws -> [ReturnRequest]?
    /// Every customer's returns, newest first (by creation, then id), those of `status` when
    /// given, after `cursor`: at most `limit`.
    /// - Throws: `StoreUnavailable`.
    func staffPage(status: ReturnStatus?, after cursor: PageCursor?, limit: Int) async throws -> [ReturnRequest]
    /// The return with this id, or `nil`.
    /// - Throws: `StoreUnavailable`.
    func returnRequest(id: UUID) async throws -> ReturnRequest?
    /// Moves an approved return to `received` without a refund or a restock, when refunds took
    /// its units before: for each line, the units refunds took less those the order's other
    /// returns hold (received, or with a refund of their own not failed) cover it. Under the
    /// order's row lock, so no unit is matched with two returns.
    /// - Throws: `ReturnError.wrongState`, `.notRefunded`, `StoreUnavailable`.
    func receiveWithoutRefund(id: UUID, at: Date) async throws -> ReturnRequest
    /// Records the refund that pays a received return back.
    /// - Throws: `StoreUnavailable`.
    func attachRefund(returnID: UUID, refundID: UUID) async throws -> ReturnRequest
}
