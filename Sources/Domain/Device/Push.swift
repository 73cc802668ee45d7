import Foundation

/// What a customer's phone is told of their order: paid, shipped (the first shipment),
/// delivered.
public enum PushEvent: String, CaseIterable, Hashable, Sendable {
    case orderPaid = "order_paid"
    case orderShipped = "order_shipped"
    case orderDelivered = "order_delivered"
}

/// One push to send: an order event for one device, recorded by the order change's own
/// transaction, at most one per device, order and event.
public struct Push: Hashable, Sendable {
    public let id: UUID
    public let deviceToken: String
    public let orderID: UUID
    public let event: PushEvent
    public let locale: String
    /// Tries so far, this one included.
    public let attempts: Int

    public init(id: UUID, deviceToken: String, orderID: UUID, event: PushEvent, locale: String, attempts: Int) {
        self.id = id
        self.deviceToken = deviceToken
        self.orderID = orderID
        self.event = event
        self.locale = locale
        self.attempts = attempts
    }

    /// Pushes of one order event replace each other on the phone (`apns-collapse-id`): a push
    /// sent again after a lost answer shows once.
    public var collapseID: String { "order-\(orderID.uuidString.lowercased())-\(event.rawValue)" }

    /// The alert, in Japanese for a Japanese locale and in English otherwise.
    public var alert: (title: String, body: String) {
        let japanese = locale.lowercased().hasPrefix("ja")
        switch event {
        case .orderPaid: return japanese ? ("ご注文を承りました", "お支払いが完了しました。") : ("Order confirmed", "Your payment went through.")
        case .orderShipped: return japanese ? ("発送しました", "ご注文の商品を発送しました。") : ("On its way", "Your order has shipped.")
        case .orderDelivered: return japanese ? ("お届けしました", "ご注文の商品をお届けしました。") : ("Delivered", "Your order was delivered.")
        }
    }
}

/// What the push provider answered.
public enum PushResult: Hashable, Sendable {
    case sent
    /// The token is no longer the app's on that device (APNs 410, or 400 `BadDeviceToken`):
    /// the device is removed, the push given up.
    case unregistered
    /// Worth another try later (429, 5xx, no answer, an expired provider token).
    case retry(reason: String)
    /// Refused for good (another 4xx): given up.
    case rejected(reason: String)
}

/// The queue of pushes (`push_notifications`).
public protocol PushQueue: Sendable {
    /// Claims up to `limit` pushes due at `now` until `until`, so no other worker sends them
    /// meanwhile, counting the try. A push whose device was removed, or now belongs to another
    /// customer than the order's, or that waited past `staleBefore`, is given up instead.
    /// - Throws: `StoreUnavailable`.
    func claimDue(now: Date, until: Date, staleBefore: Date, limit: Int) async throws -> [Push]
    /// - Throws: `StoreUnavailable`.
    func markSent(_ id: UUID, at: Date) async throws
    /// Releases the claim and makes the push due again at `at`.
    /// - Throws: `StoreUnavailable`.
    func retry(_ id: UUID, at: Date, reason: String) async throws
    /// - Throws: `StoreUnavailable`.
    func giveUp(_ id: UUID, at: Date, reason: String) async throws
    /// Removes the device with `token` (APNs said it is gone) and gives up its pushes.
    /// - Throws: `StoreUnavailable`.
    func removeDevice(token: String, at: Date) async throws
}

/// The push provider (APNs).
public protocol PushProvider: Sendable {
    /// Sends `push`; failures to reach the provider are a `.retry`, never thrown.
    func send(_ push: Push) async -> PushResult
}
