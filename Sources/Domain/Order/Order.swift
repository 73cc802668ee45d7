import Foundation

/// A placed order: lines with prices frozen at checkout, and where its payment stands.
public struct Order: Hashable, Sendable {
    public let id: UUID
    public let customerID: UUID
    public var status: OrderStatus
    public let lines: [OrderLine]
    /// The lines' total, as priced (tax included when `pricesIncludeTax`).
    public let subtotal: Money
    public let shippingFee: Money
    /// The tax per rate, computed once at checkout (`OrderTotals`).
    public let taxLines: [TaxLine]
    /// Whether the prices, and so `subtotal` and each tax line's `taxable`, include tax.
    public let pricesIncludeTax: Bool
    /// Where and how it ships, as it was at checkout; `nil` for an order that ships nothing.
    public let shipping: OrderShipping?
    /// How far it is shipped, its shipments, and every change of it so far, oldest first.
    public var fulfilmentStatus: FulfilmentStatus
    public var shipments: [Shipment]
    public var events: [OrderEvent]

    /// The status its answer shows: the payment's, and once paid, how far it is shipped.
    public var progress: OrderProgress { OrderProgress(status: status, fulfilment: fulfilmentStatus) }
    /// What is paid: `subtotal` and `shippingFee`, plus the tax when prices exclude it.
    public let total: Money
    public var paymentIntentID: String?
    public var declineCode: String?
    /// The provider's refund of this order once one is known, with its status as last seen.
    public var refund: RefundRecord?
    /// What refunds not failed or canceled claim of `total`, minor units (see `RefundStore`).
    public var refundedAmount: Int64
    /// `refundedAmount` in the order's currency, as its answer shows it.
    public var refunded: Money { Money(amount: refundedAmount, currency: total.currency) }
    /// The staff's refunds of this order, oldest first.
    public var refunds: [RefundSummary]
    /// While `requires_action`: what the app needs to complete the payment, and until when the
    /// stock stays reserved for it.
    public var action: PaymentAction?
    public var actionExpiresAt: Date?
    /// Checked out without a payment method: the customer's app confirms the payment (payment
    /// sheet), so a payment still without a method is waiting on the app, not failed.
    public var confirmedByApp: Bool
    public let createdAt: Date

    /// `totals` defaults to `total` alone: no shipping, the lines at the standard rate with
    /// tax included and floored (as orders before tax classes were).
    public init(
        id: UUID, customerID: UUID, status: OrderStatus, lines: [OrderLine], total: Money, totals: OrderTotals? = nil,
        pricesIncludeTax: Bool = true, shipping: OrderShipping? = nil, fulfilmentStatus: FulfilmentStatus = .unfulfilled,
        shipments: [Shipment] = [], events: [OrderEvent] = [], paymentIntentID: String?, declineCode: String?,
        refund: RefundRecord? = nil,
        refundedAmount: Int64 = 0, refunds: [RefundSummary] = [], action: PaymentAction? = nil, actionExpiresAt: Date? = nil,
        confirmedByApp: Bool = false, createdAt: Date
    ) {
        let totals =
            totals
            ?? (try? OrderTotals.compute(
                lines: [(taxClass: .standard, total: total)], shippingFee: Money(amount: 0, currency: total.currency),
                policy: TaxPolicy()))
        self.id = id
        self.customerID = customerID
        self.status = status
        self.lines = lines
        self.subtotal = totals?.subtotal ?? total
        self.shippingFee = totals?.shippingFee ?? Money(amount: 0, currency: total.currency)
        self.taxLines = totals?.taxLines ?? []
        self.pricesIncludeTax = pricesIncludeTax
        self.shipping = shipping
        self.fulfilmentStatus = fulfilmentStatus
        self.shipments = shipments
        self.events = events
        self.total = total
        self.paymentIntentID = paymentIntentID
        self.declineCode = declineCode
        self.refund = refund
        self.refundedAmount = refundedAmount
        self.refunds = refunds
        self.action = action
        self.actionExpiresAt = actionExpiresAt
        self.confirmedByApp = confirmedByApp
        self.createdAt = createdAt
    }
}

extension Order {
    /// The decline code of a failed payment the provider gave none for, in the first answer and
    /// in every replay of it.
    public static let unspecifiedDeclineCode = "payment_failed"
}

public enum OrderStatus: String, Hashable, Sendable {
    case pendingPayment = "pending_payment"
    /// The provider waits on the customer (3-D Secure): the app completes it with the order's
    /// `action`; the stock stays reserved until `actionExpiresAt`, then the payment is cancelled.
    case requiresAction = "requires_action"
    case paid
    case paymentFailed = "payment_failed"
    case cancelled
    /// A refund was asked for and is not settled: no answer, or the provider's refund is
    /// `pending` or `requires_action`. Stock stays out until it succeeds; the reconciler settles it.
    case refundPending = "refund_pending"
    case refunded
}

/// The provider's refund of an order, as the order records it.
public struct RefundRecord: Hashable, Sendable {
    public let id: String
    public let status: RefundStatus

    public init(id: String, status: RefundStatus) {
        self.id = id
        self.status = status
    }
}

/// A checkout request as the client sent it.
public struct CheckoutRequest: Hashable, Sendable {
    public let customerID: UUID
    /// The card to charge; nil when the customer's app confirms the payment itself (the payment
    /// sheet, Apple Pay): the order then waits `requires_action` with the client secret.
    public let paymentMethod: String?
    public let idempotencyKey: String
    /// Where and how to ship: one of the customer's addresses and a method that ships there;
    /// both or neither (a shop with no active shipping method ships nothing).
    public let addressID: UUID?
    public let shippingMethodID: UUID?
    /// The most orders of the customer's that may wait for payment (`pending_payment`,
    /// `requires_action`) when this one is placed: each holds its stock until it is paid, fails or
    /// times out, so one account with a full cart could otherwise hold a shop's stock by checking
    /// out again and again without paying (`MAX_ORDERS_AWAITING_PAYMENT`).
    public let awaitingPaymentLimit: Int
    public static let defaultAwaitingPaymentLimit = 5
    /// The least total the payment provider charges, in the shop's currency (its
    /// `minimumCharge`): an order below it is refused, nothing reserved.
    public let minimumCharge: Money
    /// The most the payment provider charges at once (its `maximumCharge`), when it says: an
    /// order above it is refused, nothing reserved.
    public let maximumCharge: Money?
    /// How long after its placing an order still `pending_payment` may be in the hands of the
    /// checkout that placed it (its provider calls: the reconciler's `minimumAge`). A younger one
    /// refuses another checkout (`OrderError.checkoutInProgress`); an older one is the
    /// reconciler's to settle, and counts toward `awaitingPaymentLimit` only, so an order the
    /// provider never settles does not bar its customer's checkouts for good.
    public let paymentUnderWay: Duration
    public static let defaultPaymentUnderWay: Duration = .seconds(90)
    /// The total the app showed the customer, when it says: an order that would total anything
    /// else is refused (a price, rate or tax changed since), nothing reserved. A precondition,
    /// not part of what is bought: a repeated key answers with its first order whatever it says.
    public let expectedTotal: Money?

    public init(
        customerID: UUID, paymentMethod: String?, idempotencyKey: String, addressID: UUID? = nil, shippingMethodID: UUID? = nil,
        awaitingPaymentLimit: Int = defaultAwaitingPaymentLimit, minimumCharge: Money, maximumCharge: Money? = nil,
        paymentUnderWay: Duration = defaultPaymentUnderWay, expectedTotal: Money? = nil
    ) {
        self.customerID = customerID
        self.paymentMethod = paymentMethod
        self.idempotencyKey = idempotencyKey
        self.addressID = addressID
        self.shippingMethodID = shippingMethodID
        self.awaitingPaymentLimit = awaitingPaymentLimit
        self.minimumCharge = minimumCharge
        self.maximumCharge = maximumCharge
        self.paymentUnderWay = paymentUnderWay
        self.expectedTotal = expectedTotal
    }

    /// What must match for a repeated key to count as the same request.
    public var fingerprint: String {
        var fingerprint = "payment_method=\(paymentMethod ?? "")"
        if let addressID, let shippingMethodID {
            fingerprint += "&address_id=\(addressID.lowercasedText)&shipping_method_id=\(shippingMethodID.lowercasedText)"
        }
        return fingerprint
    }

    /// - Throws: `ValidationError` for a missing or malformed key or payment method.
    public func validate() throws(ValidationError) {
        var errors = FieldErrors()
        errors.require(IdempotencyKey.isWellFormed(idempotencyKey), "idempotency_key", IdempotencyKey.rule)
        if let paymentMethod {
            errors.require(
                paymentMethod.hasPrefix("pm_") && paymentMethod.count <= 255
                    && paymentMethod.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") },
                "payment_method", "must be a payment method id like pm_..., or absent for the app to confirm the payment")
        }
        errors.require(addressID != nil || shippingMethodID == nil, "address_id", "is required with shipping_method_id")
        errors.require(shippingMethodID != nil || addressID == nil, "shipping_method_id", "is required with address_id")
        try errors.throwIfAny()
    }
}

/// What a checkout attempt ended as.
public enum CheckoutOutcome: Hashable, Sendable {
    /// Paid (201).
    case paid(Order)
    /// The provider did not answer: the order stays pending and the reconciler settles it (202).
    case pending(Order)
    /// The card was declined; stock was released (402).
    case declined(Order, code: String)
    /// A replayed checkout whose order was cancelled before it was paid: nothing was charged (409).
    case cancelled(Order)
}

public enum OrderError: Error, Equatable, Sendable {
    case emptyCart
    /// Lines whose stock is short, with what is available; nothing was reserved.
    case insufficientStock([InsufficientLine])
    /// Cart lines whose item is no longer priced in the shop's currency; nothing was reserved.
    case unavailableItems([CartLineKey])
    /// The same Idempotency-Key came with a different body.
    case idempotencyKeyReused
    case orderNotFound(UUID)
    /// Only pending and paid orders can be cancelled.
    case notCancellable(OrderProgress)
    /// A staff refund of the paid order is not settled yet: cancel once it is.
    case refundUnsettled
    /// The provider answered the refund `failed` or `canceled`: nothing was refunded and the
    /// order is paid again.
    case refundFailed(RefundStatus)
    /// The shop ships (it has an active shipping method) and the checkout named no address.
    case shippingRequired
    /// `address_id` names no address of the customer's.
    case addressNotFound
    /// The method is inactive, unknown, or has no rate for the address.
    case shippingNotOffered
    /// The customer's orders waiting for payment, oldest first, when they are as many as
    /// `CheckoutRequest.awaitingPaymentLimit` (or more, were the limit lowered since); nothing was
    /// reserved.
    case awaitingPayment([UUID])
    /// An earlier order of the customer's is still `pending_payment`, placed within
    /// `CheckoutRequest.paymentUnderWay`: its payment may be under way. A second order of the
    /// same cart is what a double tap on "Buy" makes, charged twice; nothing was reserved.
    case checkoutInProgress(UUID)
    /// The order's total is below the least the payment provider charges; nothing was reserved.
    case belowMinimumCharge(total: Money, minimum: Money)
    /// The order's total is above the most the payment provider charges at once; nothing was
    /// reserved.
    case aboveMaximumCharge(total: Money, maximum: Money)
    /// The order would total `total`, not the `expected` the app showed; nothing was reserved.
    case totalChanged(total: Money, expected: Money)
}

public struct InsufficientLine: Hashable, Sendable {
    public let line: CartLineKey
    public let requested: Int
    public let available: Int

    public init(line: CartLineKey, requested: Int, available: Int) {
        self.line = line
        self.requested = requested
        self.available = available
    }
}

/// Which cart line: the variant and the item it is of.
public struct CartLineKey: Hashable, Sendable {
    public let itemID: UUID
    public let variantID: UUID

    public init(itemID: UUID, variantID: UUID) {
        self.itemID = itemID
        self.variantID = variantID
    }
}
