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
    /// The return whose receipt this refund is: its units were shipped and came back, and it is
    /// refunded only while the return is approved. Without one, a restock takes units off what
    /// is left to ship first: a staff refund of what has not shipped yet.
    public let returnID: UUID?

    public init(
        orderID: UUID, amount: Money?, lines: [RefundLine], reason: RefundReason, restock: Bool, idempotencyKey: String,
        returnID: UUID? = nil
    ) {
        self.orderID = orderID
        self.amount = amount
        self.lines = lines
        self.reason = reason
        self.restock = restock
        self.idempotencyKey = idempotencyKey
        self.returnID = returnID
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
        for repeated in DistinctLines.errors(lines.map(\.variantID)) { errors.add(repeated.field, repeated.message) }
        for (index, line) in lines.enumerated() {
            errors.require((1...99).contains(line.quantity), "lines[\(index)].quantity", "must be 1 to 99")
        }
        try errors.throwIfAny()
    }
}

/// Units of one ordered line a refund gives back, at the price they were bought for.
public struct RefundedUnits: Hashable, Sendable {
    public let unitPrice: Money
    public let quantity: Int
    public let taxClass: TaxClass

    public init(unitPrice: Money, quantity: Int, taxClass: TaxClass) {
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.taxClass = taxClass
    }

    /// What `units` cost the customer: their prices and, when the order's prices excluded tax
    /// (`tax`, the order's policy), the tax on them as the order charged it: per rate, on the
    /// rate's sum, rounded as the order's was. The tax is counted on top of the units `earlier`
    /// refunds took (the tax on all of them less the tax on those), so refunds by lines give back
    /// the tax too and all of them together exactly the order's tax on the lines.
    /// - Throws: `MoneyError.overflow` past what an Int64 holds.
    public static func value(
        of units: [RefundedUnits], after earlier: [RefundedUnits], in currency: Currency, tax: TaxPolicy
    ) throws(MoneyError) -> Money {
        func net(_ units: [RefundedUnits], _ taxClass: TaxClass) throws(MoneyError) -> Money {
            var sum = Money(amount: 0, currency: currency)
            for unit in units where unit.taxClass == taxClass { sum = try sum.adding(try unit.unitPrice.multiplied(by: unit.quantity)) }
            return sum
        }
        var value = Money(amount: 0, currency: currency)
        for taxClass in TaxClass.allCases {
            let now = try net(units, taxClass)
            value = try value.adding(now)
            guard !tax.pricesIncludeTax else { continue }
            let before = try net(earlier, taxClass)
            let taxBefore = try tax.tax(in: before, at: taxClass)
            let taxAfter = try tax.tax(in: try before.adding(now), at: taxClass)
            value = try value.adding(Money(amount: taxAfter.amount - taxBefore.amount, currency: currency))
        }
        return value
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
    /// earlier refunds left to refund or to restock; or an amount short of what is left when the
    /// lines leave nothing to ship on an order that shipped nothing: field errors.
    case invalid([FieldError])
    /// The same Idempotency-Key came with a different body.
    case idempotencyKeyReused
}
