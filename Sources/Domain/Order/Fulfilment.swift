import Foundation

/// How far a paid order is shipped (`orders.fulfilment_status`), beside its payment's status.
public enum FulfilmentStatus: String, CaseIterable, Hashable, Sendable {
    case unfulfilled
    case partiallyShipped = "partially_shipped"
    case shipped
    case delivered
}

/// Where an order stands as its answer's `status` shows it: the payment's status, and once paid,
/// how far it is shipped (`paid` -> `partially_shipped` -> `shipped` -> `delivered`).
public enum OrderProgress: String, CaseIterable, Hashable, Sendable {
    case pendingPayment = "pending_payment"
    case requiresAction = "requires_action"
    case paid
    case partiallyShipped = "partially_shipped"
    case shipped
    case delivered
    case paymentFailed = "payment_failed"
    case cancelled
    case refundPending = "refund_pending"
    case refunded

    /// The payment's status, and once paid, how far the order is shipped: each case named, so a
    /// status added to either enum fails to compile here instead of trapping.
    public init(status: OrderStatus, fulfilment: FulfilmentStatus) {
        switch (status, fulfilment) {
        case (.pendingPayment, _): self = .pendingPayment
        case (.requiresAction, _): self = .requiresAction
        case (.paid, .unfulfilled): self = .paid
        case (.paid, .partiallyShipped): self = .partiallyShipped
        case (.paid, .shipped): self = .shipped
        case (.paid, .delivered): self = .delivered
        case (.paymentFailed, _): self = .paymentFailed
        case (.cancelled, _): self = .cancelled
        case (.refundPending, _): self = .refundPending
        case (.refunded, _): self = .refunded
        }
    }
}

/// A change of an order, kept forever: `placed`, `status_changed`, `fulfilment_changed` (with
/// `from` and `to`), `shipment_created` (with `shipment_id`, `carrier`, `tracking_number`),
/// `shipment_delivered`, `return_requested`, `return_approved`, `return_refused`,
/// `return_received`, `return_refund_failed` (the return's refund failed after its receipt: it
/// is approved again) (with `return_id`); who made it (`customer`, `staff` or `system`: customers see no actor).
public struct OrderEvent: Hashable, Sendable {
    public let type: String
    public let at: Date
    public let actor: EventActor
    public let data: [String: String]

    public init(type: String, at: Date, actor: EventActor, data: [String: String]) {
        self.type = type
        self.at = at
        self.actor = actor
        self.data = data
    }
}

/// Units of an order's lines sent together, with the carrier's tracking number.
public struct Shipment: Hashable, Sendable {
    public let id: UUID
    public let orderID: UUID
    public let carrier: String
    public let trackingNumber: String
    public let lines: [ShipmentLine]
    public let createdAt: Date
    public let deliveredAt: Date?

    public init(
        id: UUID, orderID: UUID, carrier: String, trackingNumber: String, lines: [ShipmentLine], createdAt: Date, deliveredAt: Date?
    ) {
        self.id = id
        self.orderID = orderID
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.lines = lines
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
    }
}

public struct ShipmentLine: Hashable, Sendable {
    public let variantID: UUID
    public let quantity: Int

    public init(variantID: UUID, quantity: Int) {
        self.variantID = variantID
        self.quantity = quantity
    }
}

/// An order as the staff see it: with its customer's email (none once the account is deleted),
/// its shipments, and its events with their actors.
public struct StaffOrder: Hashable, Sendable {
    public let order: Order
    public let customerEmail: String?

    public init(order: Order, customerEmail: String?) {
        self.order = order
        self.customerEmail = customerEmail
    }

    /// The order's events with their actors.
    public var events: [StaffOrderEvent] { order.events.map(StaffOrderEvent.init) }
}

/// An order's event as the staff see it: with who made it.
public struct StaffOrderEvent: Hashable, Sendable {
    public let type: String
    public let at: Date
    public let actor: EventActor
    public let data: [String: String]

    public init(_ event: OrderEvent) {
        type = event.type
        at = event.at
        actor = event.actor
        data = event.data
    }
}

/// Who made a change of an order.
public enum EventActor: String, CaseIterable, Hashable, Sendable {
    case customer, staff, system
}

/// What the staff's list of orders is narrowed to.
public struct StaffOrderFilter: Hashable, Sendable {
    public let progress: OrderProgress?
    /// An order's id, its customer's email, or a SKU one of its lines holds.
    public let query: String?

    public init(progress: OrderProgress?, query: String?) {
        self.progress = progress
        // Composed, as emails are kept (`AccountRules.normalizedEmail`): a pasted address in
        // another Unicode form still finds its customer.
        self.query = query?.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
    }

    /// The ids the query can be the start of: with its hyphens dropped, 6 to 32 hex digits (the
    /// short form staff read out, such as `3f2a9c01`) give the first and last id beginning so,
    /// a range the orders' primary key answers; anything else gives none.
    public var idRange: (first: UUID, last: UUID)? {
        guard let query else { return nil }
        let digits = query.lowercased().filter { $0 != "-" }
        guard (6...32).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        func id(padding pad: Character) -> UUID? {
            let hex = Array(digits + String(repeating: pad, count: 32 - digits.count))
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
            return UUID(text: groups.joined(separator: "-"))
        }
        guard let first = id(padding: "0"), let last = id(padding: "f") else { return nil }
        return (first, last)
    }
}

public enum FulfilmentError: Error, Equatable, Sendable {
    case orderNotFound(UUID)
    /// Only a paid order not wholly shipped is shipped (its progress is named).
    case notShippable(OrderProgress)
    /// A line of the shipment names a variant the order did not buy.
    case notOrdered(index: Int)
    /// A line of the shipment asks for more units than its line of the order has left to ship.
    case beyondOrdered(index: Int, left: Int)
    case shipmentNotFound(UUID)
    case alreadyDelivered
}

/// Shipments and the staff's view of orders.
public protocol FulfilmentStore: Sendable {
    /// Ships `lines` of a paid order (every unit left when nil) in one shipment, under the
    /// order's row lock: the order becomes `partially_shipped` or `shipped`.
    /// - Throws: `FulfilmentError`, `StoreUnavailable`.
    func ship(
        orderID: UUID, shipmentID: UUID, carrier: String, trackingNumber: String, lines: [ShipmentLine]?, at: Date
    ) async throws -> Shipment
    /// Marks a shipment delivered; the order is `delivered` once all its shipments are and
    /// nothing is left to ship.
    /// - Throws: `FulfilmentError`, `StoreUnavailable`.
    func deliver(shipmentID: UUID, at: Date) async throws -> Shipment
    /// Orders newest first after `cursor`, narrowed by `filter`.
    /// - Throws: `StoreUnavailable`.
    func staffPage(matching filter: StaffOrderFilter, after cursor: PageCursor?, limit: Int) async throws -> [StaffOrder]
    /// - Throws: `StoreUnavailable`.
    func staffOrder(id: UUID) async throws -> StaffOrder?
}
