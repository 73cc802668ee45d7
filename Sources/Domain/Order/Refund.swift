import Foundation

/// A refund the staff issued on a paid order, partial or full, with the provider's status.
public struct Refund: Hashable, Sendable {
    public let id: UUID
    public let orderID: UUID
    public let amount: Money
    public let reason: RefundReason
    public let restock: Bool
    /// The quantities put back in stock when the refund succeeds (empty without `restock`).
    public let lines: [RefundLine]
    /// `pending` until the provider answers, then the provider's status.
    public var status: RefundStatus
    public var providerRefundID: String?
    /// The order's payment at the provider, which the refund gives money back from.
    public let paymentIntentID: String
    public let createdAt: Date

    public init(
        id: UUID, orderID: UUID, amount: Money, reason: RefundReason, restock: Bool, lines: [RefundLine], status: RefundStatus,
        providerRefundID: String?, paymentIntentID: String, createdAt: Date
    ) {
        self.id = id
        self.orderID = orderID
        self.amount = amount
        self.reason = reason
        self.restock = restock
        self.lines = lines
        self.status = status
        self.providerRefundID = providerRefundID
        self.paymentIntentID = paymentIntentID
        self.createdAt = createdAt
    }

    /// The key of every provider call for this refund, so the provider makes it at most once.
    public var providerIdempotencyKey: String { "refund-\(id.lowercasedText)" }
}

/// A refund as the customer's order shows it.
public struct RefundSummary: Hashable, Sendable {
    public let id: UUID
    public let amount: Money
    public let status: RefundStatus
    public let createdAt: Date

    public init(id: UUID, amount: Money, status: RefundStatus, createdAt: Date) {
        self.id = id
        self.amount = amount
        self.status = status
        self.createdAt = createdAt
    }
}

/// Quantity of one ordered variant a refund returns to stock.
public struct RefundLine: Hashable, Sendable {
    public let variantID: UUID
    public let quantity: Int

    public init(variantID: UUID, quantity: Int) {
        self.variantID = variantID
        self.quantity = quantity
    }
}

/// Why the staff refunded: Stripe's reasons, and `other`.
public enum RefundReason: String, Hashable, Sendable, CaseIterable {
    case duplicate
    case fraudulent
    case requestedByCustomer = "requested_by_customer"
    case other
}

/// A refund request as the staff sent it.
public struct RefundRequest: Hashable, Sendable {
    public let orderID: UUID
    /// In the order's currency; nil refunds the value of `lines`, or without lines all that
    /// remains.
    public let amount: Money?
    public let lines: [RefundLine]
    public let reason: RefundReason
    public let restock: Bool
    public let idempotencyKey: String
    /// The lines' units were shipped and came back (a return's receipt). Otherwise a restock
    /// takes units off what is left to ship first: a staff refund of what has not shipped yet.
    public let returnedByCustomer: Bool

    public init(
        orderID: UUID, amount: Money?, lines: [RefundLine], reason: RefundReason, restock: Bool, idempotencyKey: String,
        returnedByCustomer: Bool = false
    ) {
        self.orderID = orderID
        self.amount = amount
        self.lines = lines
        self.reason = reason
        self.restock = restock
        self.idempotencyKey = idempotencyKey
        self.returnedByCustomer = returnedByCustomer
    }

    /// At most this many lines in one refund.
    public static let maxLines = 100

    /// What must match for a repeated key to count as the same request.
    public var fingerprint: String {
        let lines = lines.sorted { $0.variantID.uuidString < $1.variantID.uuidString }
            .map { "\($0.variantID.lowercasedText)x\($0.quantity)" }.joined(separator: ",")
        return
            "amount=\(amount.map { "\($0.amount) \($0.currency.code)" } ?? "rest");lines=\(lines);reason=\(reason.rawValue);restock=\(restock)"
    }

    /// Checks what can be checked without the order (its remainder is the store's to check).
    /// - Throws: `ValidationError` naming every bad field.
    public func validate() throws(ValidationError) {
        var errors = FieldErrors()
        errors.require(IdempotencyKey.isWellFormed(idempotencyKey), "idempotency_key", IdempotencyKey.rule)
        if let amount { errors.require(amount.amount >= 1, "amount.amount", "must be at least 1 (minor units)") }
        errors.require(lines.count <= Self.maxLines, "lines", "must have at most \(Self.maxLines) entries")
        errors.require(!restock || !lines.isEmpty, "lines", "must name what to put back in stock when restock is true")
        var seen = Set<UUID>()
        for (index, line) in lines.enumerated() {
            errors.require(seen.insert(line.variantID).inserted, "lines[\(index)].variant_id", "appears twice")
            errors.require((1...99).contains(line.quantity), "lines[\(index)].quantity", "must be 1 to 99")
        }
        try errors.throwIfAny()
    }
}

/// What a refund request ended as.
public enum RefundOutcome: Hashable, Sendable {
    /// The provider refunded it (201); its lines were restocked when asked.
    case succeeded(Refund)
    /// No final answer yet: the reconciler or a webhook settles it (202).
    case pending(Refund)
    /// The provider answered failed or canceled: the amount is free again (502).
    case failed(Refund)

    public init(_ refund: Refund) {
        switch refund.status {
        case .succeeded: self = .succeeded(refund)
        case .pending, .requiresAction: self = .pending(refund)
        case .failed, .canceled: self = .failed(refund)
        }
    }
}

public enum RefundError: Error, Equatable, Sendable {
    case orderNotFound(UUID)
    /// Only paid orders (partially refunded ones included) can be refunded.
    case notRefundable(OrderStatus)
    /// More than what was captured, all earlier refunds counted: the amount left to refund.
    case exceedsCaptured(remaining: Money)
    /// The amount is in another currency than the order's: the order's.
    case foreignCurrency(Currency)
    /// A line names an item the order does not have, more than was ordered, or more than
    /// earlier refunds left to refund or to restock: field errors.
    case invalidLines([FieldError])
    /// The same Idempotency-Key came with a different body.
    case idempotencyKeyReused
}
